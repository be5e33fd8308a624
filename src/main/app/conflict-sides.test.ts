import { describe, expect, it } from 'vitest';
import { authorOf, conflictPreviewPath, hasLocalThumbnail } from './conflict-sides.js';

describe('authorOf', () => {
  it('is "you" when the service file was added by the signed-in user, never a person', () => {
    expect(authorOf('user-1', 'user-1', null)).toEqual({ kind: 'you' });
    expect(authorOf('user-1', 'user-1', 'Ana Lima')).toEqual({ kind: 'you' });
  });

  it('names another user, and claims nobody when the service does not say who or their name', () => {
    expect(authorOf('user-2', 'user-1', 'Mia Chen')).toEqual({ kind: 'person', name: 'Mia Chen' });
    expect(authorOf('user-2', 'user-1', null)).toBeNull();
    expect(authorOf(null, 'user-1', null)).toBeNull();
    // Not knowing who is signed in, a change is not called anyone's but its named author's.
    expect(authorOf('user-2', null, 'Mia Chen')).toEqual({ kind: 'person', name: 'Mia Chen' });
  });
});

describe('conflict thumbnails', () => {
  it('are addressed by conflict id and version alone, never by a path', () => {
    expect(conflictPreviewPath(12, 'mine', 'abc')).toBe('/conflict-preview/12/mine?v=abc');
    expect(conflictPreviewPath(12, 'theirs', 'file/1')).toBe('/conflict-preview/12/theirs?v=file%2F1');
  });

  it('are made of local images only', () => {
    expect(hasLocalThumbnail('Shots/a (conflict 2026-12-07 114012).PNG')).toBe(true);
    expect(hasLocalThumbnail('Docs/a (conflict 2026-12-07 114012).txt')).toBe(false);
  });
});

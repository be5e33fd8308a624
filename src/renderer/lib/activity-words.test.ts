import { describe, expect, it } from 'vitest';
import { activityVerb } from './activity-words.js';

describe('activity entries in words', () => {
  it('says a file went to the Trash', () => {
    expect(activityVerb({ kind: 'trash', relPath: 'Briefs/old brief.txt', from: null })).toBe('Moved to the Trash');
  });

  it('says where a moved file or folder was: renamed in its folder, moved from another', () => {
    expect(activityVerb({ kind: 'move', relPath: 'Logos/logo-final.png', from: 'Logos/logo.png' })).toBe('Renamed from logo.png');
    expect(activityVerb({ kind: 'move', relPath: 'Logos/logo.png', from: 'Drafts/logo.png' })).toBe('Moved from Drafts');
    expect(activityVerb({ kind: 'move', relPath: 'Logos/logo.png', from: 'logo.png' })).toBe('Moved from the top level');
    expect(activityVerb({ kind: 'move', relPath: 'Logos/logo-final.png', from: 'Drafts/logo.png' })).toBe('Moved from Drafts/logo.png');
    expect(activityVerb({ kind: 'folder-move', relPath: 'Shoots/2026', from: 'Shoots/2025' })).toBe('Folder renamed from 2025');
  });

  it('names the file a conflict copy was set aside from', () => {
    expect(activityVerb({ kind: 'conflict-copy', relPath: 'Docs/brief (conflict 2026-12-07 110000).txt', from: 'Docs/brief.txt' })).toBe('Conflict copy of brief.txt');
  });
});

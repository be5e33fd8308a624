import { describe, expect, it } from 'vitest';
import type { Conflict } from '../db/conflicts-repo.js';
import { ManualClock, MemoryFileSystem } from '../local/index.js';
import type { Asset, User } from '../../shared/api/resources.js';
import { ConflictSides, authorOf, conflictPreviewPath, hasLocalThumbnail } from './conflict-sides.js';
import type { EngineSession } from './engine-session.js';

const conflict: Conflict = {
  id: 4,
  rootId: 'root-1',
  relPath: 'Shots/own.png',
  copyPath: 'Shots/own (conflict 2026-12-07 114012).png',
  assetId: 'asset-1',
  local: { md5: 'local-md5', size: 10, mtimeMs: Date.UTC(2026, 11, 7) },
  remote: { md5: 'remote-md5', size: 11, fileId: 'file-2', dateModified: '2026-12-07T11:40:00.000Z' },
  dateCreated: '2026-12-07T11:40:12.000Z',
};

/** A session whose service answers the asset's current file as added by `addedBy`, and knows Mia. */
function sessionOf(userId: string | null, addedBy: string | null): { session: EngineSession; asked: string[] } {
  const asked: string[] = [];
  const asset = { id: 'asset-1', currentAssetFile: { id: 'file-2', addedBy, previewUrl: 'http://127.0.0.1:1/previews/x.webp?signature=s' } } as unknown as Asset;
  const api = {
    getAsset: async (id: string) => {
      asked.push(`asset ${id}`);
      return asset;
    },
    getUser: async (id: string): Promise<User> => {
      asked.push(`user ${id}`);
      return { id, email: 'mia@example.com', name: 'Mia Chen', accountId: 'a' };
    },
  };
  return { session: { userId, api } as unknown as EngineSession, asked };
}

async function settled(sides: ConflictSides, published: { count: number }): Promise<ReturnType<ConflictSides['view']>> {
  sides.view(conflict);
  await expect.poll(() => published.count).toBe(1);
  return sides.view(conflict);
}

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

describe('ConflictSides', () => {
  it('claims nobody and no service thumbnail until the service answered, then publishes again', async () => {
    const { session } = sessionOf('user-1', 'user-2');
    const published = { count: 0 };
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => { published.count += 1; } });
    const first = sides.view(conflict);
    expect(first.theirs).toMatchObject({ modifiedBy: null, previewUrl: null, size: 11 });
    expect(first.mine).toMatchObject({ modifiedBy: { kind: 'you' }, previewUrl: '/conflict-preview/4/mine?v=local-md5', size: 10 });
    const after = await settled(sides, published);
    expect(after.theirs).toMatchObject({ modifiedBy: { kind: 'person', name: 'Mia Chen' }, previewUrl: '/conflict-preview/4/theirs?v=file-2' });
  });

  it('says "you" of the signed-in user\'s own change, without asking who they are', async () => {
    const { session, asked } = sessionOf('user-1', 'user-1');
    const published = { count: 0 };
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => { published.count += 1; } });
    expect((await settled(sides, published)).theirs.modifiedBy).toEqual({ kind: 'you' });
    // Asked once, however often the state is built.
    sides.view(conflict);
    expect(asked).toEqual(['asset asset-1']);
  });
});

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Conflict } from '../db/conflicts-repo.js';
import { ManualClock, MemoryFileSystem, NodeFileSystem } from '../local/index.js';
import { md5Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';
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
function sessionOf(
  userId: string | null,
  addedBy: string | null,
  previewUrl: string | null = 'http://127.0.0.1:1/previews/x.png?signature=s',
  served: Uint8Array = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52),
): { session: EngineSession; asked: string[]; file: { previewUrl: string | null; previewState?: string } } {
  const asked: string[] = [];
  const file: { previewUrl: string | null; previewState?: string } & Record<string, unknown> = { id: 'file-2', addedBy, previewUrl, fileType: 'IMAGE', mediaType: { type: 'image', subType: 'png' }, size: 11 };
  const asset = { id: 'asset-1', currentAssetFile: file } as unknown as Asset;
  const api = {
    getAsset: async (id: string) => {
      asked.push(`asset ${id}`);
      return asset;
    },
    downloadToFile: async (url: string, path: string) => {
      asked.push(`download ${url}`);
      writeFileSync(path, served);
    },
    getUser: async (id: string): Promise<User> => {
      asked.push(`user ${id}`);
      return { id, email: 'mia@example.com', name: 'Mia Chen', accountId: 'a' };
    },
  };
  return { session: { userId, api, engine: { store: { conflicts: () => [conflict] } } } as unknown as EngineSession, asked, file };
}

async function settled(sides: ConflictSides, published: { count: number }, count = 1): Promise<ReturnType<ConflictSides['view']>> {
  sides.view(conflict);
  await expect.poll(() => published.count).toBe(count);
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
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => { published.count += 1; }, openPath: undefined, versionsDir: '/state/versions' });
    const first = sides.view(conflict);
    expect(first.theirs).toMatchObject({ modifiedBy: null, previewUrl: null, size: 11 });
    expect(first.mine).toMatchObject({ modifiedBy: { kind: 'you' }, previewUrl: '/conflict-preview/4/mine?v=local-md5', size: 10 });
    const after = await settled(sides, published);
    expect(after.theirs).toMatchObject({ modifiedBy: { kind: 'person', name: 'Mia Chen' }, previewUrl: '/conflict-preview/4/theirs?v=file-2' });
  });

  it('says "you" of the signed-in user\'s own change, without asking who they are', async () => {
    const { session, asked } = sessionOf('user-1', 'user-1');
    const published = { count: 0 };
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => { published.count += 1; }, openPath: undefined, versionsDir: '/state/versions' });
    expect((await settled(sides, published)).theirs.modifiedBy).toEqual({ kind: 'you' });
    // Asked once, however often the state is built.
    sides.view(conflict);
    expect(asked).toEqual(['asset asset-1']);
  });

  it('asks again for a preview the service is still making, no sooner than a minute later', async () => {
    const { session, asked, file } = sessionOf('user-1', 'user-1', null);
    const published = { count: 0 };
    const clock = new ManualClock();
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock, changed: () => { published.count += 1; }, openPath: undefined, versionsDir: '/state/versions' });
    expect((await settled(sides, published)).theirs.previewUrl).toBeNull();
    clock.advance(59_999);
    sides.view(conflict);
    expect(asked).toEqual(['asset asset-1']);
    file.previewUrl = 'http://127.0.0.1:1/previews/x.webp?signature=s';
    clock.advance(1);
    expect((await settled(sides, published, 2)).theirs.previewUrl).toBe('/conflict-preview/4/theirs?v=file-2');
  });

  it("serves the service's thumbnail as the image its bytes are, asking our service for its size", async () => {
    const { session, asked, file } = sessionOf('user-1', 'user-1');
    file.previewState = 'AVAILABLE';
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => undefined, openPath: undefined, versionsDir: '/state/versions' });
    const preview = await sides.preview(conflict.id, 'theirs');
    expect(preview?.contentType).toBe('image/png');
    expect(asked).toContain('download http://127.0.0.1:1/previews/x.png?signature=s&size=256');
  });

  it("serves no thumbnail of bytes that are no raster image (an SVG original of the hosted service's)", async () => {
    const { session } = sessionOf('user-1', 'user-1', 'https://hosted.example.test/previews/x.svg?s=1', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    const sides = new ConflictSides({ session: () => session, fs: new MemoryFileSystem(), clock: new ManualClock(), changed: () => undefined, openPath: undefined, versionsDir: '/state/versions' });
    expect(await sides.preview(conflict.id, 'theirs')).toBeUndefined();
  });
});

describe('opening a version of a conflict', () => {
  it('opens our copy, the file under its name while it is the service\'s version, else a verified download of that version', async () => {
    const top = tempDir('conflict-open-');
    const root = join(top, 'Asset Sync');
    mkdirSync(join(root, 'Shots'), { recursive: true });
    const theirs = 'their bytes';
    writeFileSync(join(root, conflict.relPath), theirs);
    writeFileSync(join(root, conflict.copyPath), 'my bytes');
    const stat = statSync(join(root, conflict.relPath));
    const synced = { relPath: conflict.relPath, assetId: 'asset-1', md5: conflict.remote.md5, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev };
    const downloads: string[] = [];
    const api = {
      requestDownloads: async () => ({ successes: { '0': { url: 'http://127.0.0.1:1/files/file-2/content', filename: 'own.png', size: theirs.length, checksum: md5Hex(theirs) } }, failures: {} }),
      downloadToFile: async (url: string, path: string) => {
        downloads.push(url);
        writeFileSync(path, theirs);
        return { size: theirs.length, resumed: false, etag: undefined, md5: md5Hex(theirs) };
      },
    };
    const store = {
      root: (id: string) => (id === 'root-1' ? { id, path: root } : undefined),
      conflicts: () => [conflict],
      resolution: { snapshots: { syncedEntry: (_rootId: string, relPath: string) => (relPath === conflict.relPath ? synced : undefined) } },
    };
    const session = { userId: 'user-1', api, engine: { store } } as unknown as EngineSession;
    const opened: string[] = [];
    const sides = new ConflictSides({
      session: () => session,
      fs: new NodeFileSystem(),
      clock: new ManualClock(),
      changed: () => undefined,
      openPath: async (path) => {
        opened.push(path);
      },
      versionsDir: join(top, 'state', 'versions'),
    });

    await sides.open(conflict.id, 'mine');
    await sides.open(conflict.id, 'theirs');
    expect(opened).toEqual([join(root, conflict.copyPath), join(root, conflict.relPath)]);
    expect(downloads).toEqual([]);

    // Changed here since it was downloaded: the file under the name is no longer the service's version.
    writeFileSync(join(root, conflict.relPath), 'my later edit');
    await sides.open(conflict.id, 'theirs');
    expect(downloads).toHaveLength(1);
    expect(opened[2]).toBe(join(top, 'state', 'versions', '4', 'own.png'));
    await expect(sides.open(99, 'mine')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

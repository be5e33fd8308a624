import { describe, expect, it } from 'vitest';
import type { Landing } from '../db/landing-journal.js';
import { ManualClock } from '../local/manual-clock.js';
import { MemoryFileSystem } from '../local/memory-file-system.js';
import { landedRecord, recoverLandings } from './recover-landings.js';
import type { LocalEntry, PendingSignature, SyncedEntry } from './sync-types.js';

const ROOT = '/sync';
const TEMP = `${ROOT}/.asset-sync/downloads`;

/** A verified download in its temp file, and the landing written before its rename. */
async function downloaded(fs: MemoryFileSystem, relPath: string, content: string): Promise<Landing> {
  const tempPath = `${TEMP}/${relPath.replace(/\//g, '_')}.part`;
  fs.writeFile(tempPath, content);
  const stat = await fs.lstat(tempPath);
  return { local: { relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: `md5-${content}` }, assetId: `asset-${relPath}`, tempPath };
}

/** The local snapshot a full scan would make of these paths (unread: md5 null). */
async function scanned(fs: MemoryFileSystem, relPaths: string[]): Promise<Map<string, LocalEntry>> {
  const entries = await Promise.all(relPaths.map(async (relPath) => {
    const stat = await fs.lstat(`${ROOT}/${relPath}`);
    return [relPath, { relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: null }] as const;
  }));
  return new Map(entries);
}

function journal(landings: Landing[]) {
  const left = new Map(landings.map((landing) => [landing.local.relPath, landing]));
  const recorded: SyncedEntry[] = [];
  const deps = {
    unrecorded: () => [...left.values()],
    dropped: (_rootId: string, relPath: string) => void left.delete(relPath),
    recorded: (_rootId: string, landed: readonly Landing[]) => {
      for (const landing of landed) left.delete(landing.local.relPath);
      recorded.push(...landed.map(landedRecord));
    },
  };
  return { deps, left, recorded };
}

const none = new Map<string, PendingSignature>();
const nothing = new Set<string>();

describe('recoverLandings', () => {
  it('records a landed file at the path it landed at, wherever the user moved it since (no second asset)', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'A/C/b.txt', 'bravo');
    fs.mkdirpSync(`${ROOT}/A/C`);
    fs.renameSync(landing.tempPath, `${ROOT}/A/C/b.txt`);
    // The crash came here; before the restart the user renamed the folder.
    fs.renameSync(`${ROOT}/A/C`, `${ROOT}/D`);
    const { deps, left, recorded } = journal([landing]);

    const local = await scanned(fs, ['D/b.txt']);
    expect(await recoverLandings('r', () => ({ local: local, pending: none, unstable: nothing }), { fs, ...deps })).toBe(1);
    // Synced at its old path with the inode it has now at the new one: the planner sees a move.
    expect(recorded).toEqual([{ ...landing.local, assetId: 'asset-A/C/b.txt' }]);
    expect(left.size).toBe(0);
  });

  it('records a landed file still at its path, and one still settling under another name', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const still = await downloaded(fs, 'a.txt', 'alpha');
    const settling = await downloaded(fs, 'b.txt', 'bravo');
    fs.renameSync(still.tempPath, `${ROOT}/a.txt`);
    fs.renameSync(settling.tempPath, `${ROOT}/renamed.txt`);
    const pending = new Map([['renamed.txt', { size: settling.local.size, mtimeMs: settling.local.mtimeMs, ino: settling.local.ino, dev: settling.local.dev }]]);
    const { deps, recorded } = journal([still, settling]);

    const local = await scanned(fs, ['a.txt']);
    expect(await recoverLandings('r', () => ({ local: local, pending, unstable: new Set(pending.keys()) }), { fs, ...deps })).toBe(2);
    expect(recorded.map((entry) => entry.relPath)).toEqual(['a.txt', 'b.txt']);
  });

  it('forgets a landing whose rename never happened (the temp file is still there) and records nothing', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'a.txt', 'alpha');
    const { deps, left, recorded } = journal([landing]);

    expect(await recoverLandings('r', () => ({ local: new Map(), pending: none, unstable: nothing }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect(left.size).toBe(0);
    expect(fs.kindOf(landing.tempPath)).toBe('file');
  });

  it('forgets a landing whose file is nowhere (so the download comes again rather than a guessed deletion reaching the service)', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'a.txt', 'alpha');
    fs.renameSync(landing.tempPath, `${ROOT}/a.txt`);
    fs.remove(`${ROOT}/a.txt`);
    // Another file, another inode, at the same path.
    fs.writeFile(`${ROOT}/a.txt`, 'other');
    const { deps, left, recorded } = journal([landing]);

    const local = await scanned(fs, ['a.txt']);
    expect(await recoverLandings('r', () => ({ local: local, pending: none, unstable: nothing }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect(left.size).toBe(0);
  });

  it('keeps the landing of a file the scan could not read, and records it once a pass can (seed 40130)', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'A/C/a.txt', 'alpha');
    fs.mkdirpSync(`${ROOT}/A/C`);
    fs.renameSync(landing.tempPath, `${ROOT}/A/C/a.txt`);
    const { deps, left, recorded } = journal([landing]);

    // The scan after the restart: EACCES on the file, reported UNREADABLE (unstable, no signature).
    expect(await recoverLandings('r', () => ({ local: new Map(), pending: none, unstable: new Set(['A/C/a.txt']) }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect([...left.keys()]).toEqual(['A/C/a.txt']);

    const local = await scanned(fs, ['A/C/a.txt']);
    expect(await recoverLandings('r', () => ({ local, pending: none, unstable: nothing }), { fs, ...deps })).toBe(1);
    expect(recorded).toEqual([{ ...landing.local, assetId: 'asset-A/C/a.txt' }]);
    expect(left.size).toBe(0);
  });

  it('keeps the landing of a file in a folder the scan could not list', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'A/C/a.txt', 'alpha');
    fs.mkdirpSync(`${ROOT}/A/C`);
    fs.renameSync(landing.tempPath, `${ROOT}/A/C/a.txt`);
    const { deps, left, recorded } = journal([landing]);

    expect(await recoverLandings('r', () => ({ local: new Map(), pending: none, unstable: new Set(['A']) }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect(left.size).toBe(1);
  });

  it('forgets the landing of a file replaced by another that is still settling at its path', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'a.txt', 'alpha');
    fs.renameSync(landing.tempPath, `${ROOT}/a.txt`);
    fs.remove(`${ROOT}/a.txt`);
    fs.writeFile(`${ROOT}/a.txt`, 'other');
    const stat = await fs.lstat(`${ROOT}/a.txt`);
    const pending = new Map([['a.txt', { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev }]]);
    const { deps, left, recorded } = journal([landing]);

    // Unstable, but with a signature: it was compared, and it is another file.
    expect(await recoverLandings('r', () => ({ local: new Map(), pending, unstable: new Set(['a.txt']) }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect(left.size).toBe(0);
  });

  /** The service's move of a synced file `from` → `to`, written before its rename (local-change-executor.ts). */
  async function moving(fs: MemoryFileSystem, from: string, to: string): Promise<Landing> {
    fs.writeFile(`${ROOT}/${from}`, 'moving');
    const stat = await fs.lstat(`${ROOT}/${from}`);
    return { local: { relPath: to, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: 'md5-moving' }, assetId: 'asset-x', tempPath: `${ROOT}/${from}`, moved: { from, md5: 'md5-synced' } };
  }

  it('forgets a move whose rename never happened (the file still at its old path)', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const move = await moving(fs, 'A/c.txt', 'A/café (2).txt');
    const { deps, left, recorded } = journal([move]);

    const local = await scanned(fs, ['A/c.txt']);
    expect(await recoverLandings('r', () => ({ local, pending: none, unstable: nothing }), { fs, ...deps })).toBe(0);
    expect(recorded).toEqual([]);
    expect(left.size).toBe(0);
  });

  it('records a move whose old path is no longer a folder\'s (ENOTDIR), the synced bytes its record\'s', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const move = await moving(fs, 'A/c.txt', 'café.txt');
    fs.renameSync(`${ROOT}/A/c.txt`, `${ROOT}/café.txt`);
    // The crash came here; then the user replaced folder A with a file.
    fs.remove(`${ROOT}/A`);
    fs.writeFile(`${ROOT}/A`, 'a file');
    const { deps, left, recorded } = journal([move]);

    const local = await scanned(fs, ['A', 'café.txt']);
    expect(await recoverLandings('r', () => ({ local, pending: none, unstable: nothing }), { fs, ...deps })).toBe(1);
    expect(recorded).toEqual([{ ...move.local, md5: 'md5-synced', assetId: 'asset-x' }]);
    expect(left.size).toBe(0);
  });

  it('reads nothing of the disk when the journal holds no landing (every pass asks)', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const { deps } = journal([]);
    const disk = (): never => {
      throw new Error('the local snapshot was read');
    };
    expect(await recoverLandings('r', disk, { fs, ...deps })).toBe(0);
  });

  it('rejects, keeping every landing, when a temp file cannot be looked at', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    const landing = await downloaded(fs, 'a.txt', 'alpha');
    fs.injectFault(landing.tempPath, 'EACCES');
    const { deps, left, recorded } = journal([landing]);

    await expect(recoverLandings('r', () => ({ local: new Map(), pending: none, unstable: nothing }), { fs, ...deps })).rejects.toMatchObject({ code: 'EACCES' });
    expect(recorded).toEqual([]);
    expect(left.size).toBe(1);
  });
});

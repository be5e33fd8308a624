import { afterEach, describe, expect, it } from 'vitest';
import { openStateDb, type StateDb } from '../db/open-state-db.js';
import { rootsRepo } from '../db/roots-repo.js';
import { snapshotsRepo } from '../db/snapshots-repo.js';
import { issuesRepo } from '../db/issues-repo.js';
import { LocalScanner, ManualClock, MemoryFileSystem, StabilityGate, type NameMode } from '../local/index.js';
import { LocalRefresh } from './local-refresh.js';

describe('LocalRefresh', () => {
  let db: StateDb | undefined;
  afterEach(() => db?.close());

  const setUp = (rescanIntervalMs?: number, names: NameMode = 'exact') => {
    const clock = new ManualClock();
    const fs = new MemoryFileSystem({ clock, names });
    fs.mkdirpSync('/root');
    db = openStateDb(':memory:');
    const row = rootsRepo(db).upsert({ path: '/root', server: 'http://service.invalid', remotePath: '/', publishLive: false }, new Date(clock.now()).toISOString());
    const snapshots = snapshotsRepo(db);
    const issues = issuesRepo(db);
    const refresh = new LocalRefresh(
      { id: row.id, path: '/root', remotePath: '/' },
      { fs, scanner: new LocalScanner({ fs }), gate: new StabilityGate(clock, { stableMs: 100 }), snapshots, issues, now: () => clock.now(), ...(rescanIntervalMs === undefined ? {} : { rescanIntervalMs }) },
    );
    const files = (): string[] => [...snapshots.local(row.id).keys()].sort();
    return { clock, fs, refresh, files, issues, rootId: row.id };
  };

  it('forgets a file replaced by a folder of its name, in a full scan and in a hinted one (simulation seed 312)', async () => {
    const { clock, fs, refresh, files } = setUp();
    fs.writeFile('/root/Logo.png', 'a file');
    fs.writeFile('/root/other.txt', 'another');
    clock.advance(10_000);
    await refresh.refresh();
    expect(files()).toEqual(['Logo.png', 'other.txt']);

    fs.remove('/root/Logo.png');
    fs.mkdirpSync('/root/Logo.png');
    fs.writeFile('/root/Logo.png/a.txt', 'inside');
    clock.advance(10_000);
    refresh.hint(['Logo.png']);
    await refresh.refresh();
    expect(files()).toEqual(['Logo.png/a.txt', 'other.txt']);

    fs.remove('/root/Logo.png/a.txt');
    fs.writeFile('/root/Logo.png/b.txt', 'inside too');
    refresh.hint(['']);
    clock.advance(10_000);
    await refresh.refresh();
    expect(files()).toEqual(['Logo.png/b.txt', 'other.txt']);
  });

  it('records which not-synced paths are folders, and a file that became a folder of its name as a folder', async () => {
    const { clock, fs, refresh, issues, rootId } = setUp();
    fs.writeFile('/root/logo.png ', 'a file whose name ends with a space');
    fs.writeFile('/root/Brief ', 'a file, for now');
    clock.advance(10_000);
    await refresh.refresh();
    const kinds = (): [string, number][] => issues.notSynced(rootId).map((row) => [row.rel_path, row.is_folder]);
    expect(kinds()).toEqual([['Brief ', 0], ['logo.png ', 0]]);

    fs.remove('/root/Brief ');
    fs.mkdirpSync('/root/Brief ');
    fs.writeFile('/root/Brief /notes.txt', 'inside');
    refresh.hint(['']);
    clock.advance(10_000);
    await refresh.refresh();
    expect(kinds()).toEqual([['Brief ', 1], ['logo.png ', 0]]);
  });

  it('scans the whole root again once the rescan interval passed, hinted or not', async () => {
    const { clock, fs, refresh, files } = setUp(60_000);
    await refresh.refresh();
    fs.writeFile('/root/unannounced.txt', 'no event said so');
    clock.advance(10_000);
    expect(await refresh.refresh()).toBe(false);
    expect(files()).toEqual([]);
    clock.advance(60_000);
    expect(await refresh.refresh()).toBe(true);
    expect(files()).toEqual(['unannounced.txt']);
  });

  it('forgets the files no longer in a hinted folder that is still there (simulation seed 60227)', async () => {
    const { clock, fs, refresh, files } = setUp();
    fs.writeFile('/root/A/a.txt', 'moved with its folder');
    fs.writeFile('/root/A/E/b.txt', 'moved too');
    fs.writeFile('/root/B/c.txt', 'not hinted');
    clock.advance(10_000);
    await refresh.refresh();
    expect(files()).toEqual(['A/E/b.txt', 'A/a.txt', 'B/c.txt']);

    // A renamed to D, and a new A made at once: the hint for A finds a folder.
    fs.renameSync('/root/A', '/root/D');
    fs.writeFile('/root/A/new.txt', 'written after');
    fs.remove('/root/B/c.txt');
    clock.advance(10_000);
    refresh.hint(['A', 'D']);
    await refresh.refresh();
    expect(files()).toEqual(['A/new.txt', 'B/c.txt', 'D/E/b.txt', 'D/a.txt']);
  });

  it('knows an unreadable file by its signature, so a synced file renamed to it is not read as deleted (simulation seed 61160)', async () => {
    const { clock, fs, refresh, files } = setUp();
    fs.writeFile('/root/A/C/Logo.png', 'moved with its folder');
    clock.advance(10_000);
    await refresh.refresh();
    const before = await fs.lstat('/root/A/C/Logo.png');

    fs.renameSync('/root/A/C', '/root/D');
    fs.chmod('/root/D/Logo.png', 0o000);
    refresh.hint(['']);
    clock.advance(10_000);
    await refresh.refresh();
    expect(files()).toEqual([]);
    expect(refresh.unstable.has('D/Logo.png')).toBe(true);
    expect(refresh.pending.get('D/Logo.png')).toEqual({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino, dev: before.dev });

    // Readable again: a file like any other, no longer waiting.
    fs.chmod('/root/D/Logo.png', 0o644);
    refresh.hint(['D/Logo.png']);
    clock.advance(10_000);
    await refresh.refresh();
    expect(files()).toEqual(['D/Logo.png']);
    expect(refresh.pending.has('D/Logo.png')).toBe(false);
  });

  it('lets go of an unreadable file no longer in a hinted folder that is still there (simulation seed 131802)', async () => {
    const { clock, fs, refresh, issues, rootId } = setUp();
    const numbered = 'A/C/caf\u00e9 (2).txt';
    fs.writeFile(`/root/${numbered}`, 'downloaded, numbered apart from a namesake');
    fs.chmod(`/root/${numbered}`, 0o000);
    clock.advance(10_000);
    await refresh.refresh();
    expect(refresh.unstable.has(numbered)).toBe(true);
    expect(refresh.pending.has(numbered)).toBe(true);
    // A crash's landing, recorded at the file's signature, cleared the path's UNREADABLE report, so
    // no pass looks at the path again on its own.
    issues.cleared(rootId, numbered);

    // A/C renamed A2, and a new A/C made at once: the hint for A/C finds a folder without the file.
    fs.renameSync('/root/A/C', '/root/A2');
    fs.chmod(`/root/A2/caf\u00e9 (2).txt`, 0o644);
    fs.writeFile('/root/A/C/caf\u00e9.txt', 'written after');
    clock.advance(10_000);
    refresh.hint(['A/C', 'A2']);
    await refresh.refresh();
    // Held unstable there, the synced file never counted as gone, so its move to A2 read as a new file.
    expect(refresh.unstable.has(numbered)).toBe(false);
    expect(refresh.pending.has(numbered)).toBe(false);
  });

  it('knows a file renamed to the decomposed twin of a name by its signature, hinted at either spelling (simulation seed 86359)', async () => {
    const { clock, fs, refresh } = setUp();
    const nfc = 'A/caf\u00e9.txt';
    const nfd = nfc.normalize('NFD');
    fs.writeFile(`/root/${nfc}`, 'the composed twin');
    fs.writeFile('/root/A/C/caf\u00e9.txt', 'synced, then renamed');
    clock.advance(10_000);
    await refresh.refresh();
    const before = await fs.lstat('/root/A/C/caf\u00e9.txt');
    const signature = { size: before.size, mtimeMs: before.mtimeMs, ino: before.ino, dev: before.dev };

    fs.renameSync('/root/A/C/caf\u00e9.txt', `/root/${nfd}`);
    refresh.hint([nfd]);
    clock.advance(10_000);
    await refresh.refresh();
    expect(refresh.unstable.has(nfd)).toBe(true);
    expect(refresh.pending.get(nfd)).toEqual(signature);
    // The composed twin hinted (edited): the report found beside it keeps the signature known.
    fs.writeFile(`/root/${nfc}`, 'the composed twin, edited');
    refresh.hint([nfc]);
    clock.advance(10_000);
    await refresh.refresh();
    expect(refresh.pending.get(nfd)).toEqual(signature);
  });
});

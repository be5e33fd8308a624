import { describe, expect, it, vi } from 'vitest';
import { CountingFileSystem, collector, summarise } from '../../../test/support/local-fs-helpers.js';
import { IgnoreRules } from './ignore-rules.js';
import { LocalScanner } from './local-scanner.js';
import { ManualClock } from './manual-clock.js';
import { MemoryFileSystem } from './memory-file-system.js';
import type { LocalObservation } from './observations.js';

const ROOT = '/sync';
const rules = new IgnoreRules();

function tree(): MemoryFileSystem {
  const fs = new MemoryFileSystem({ clock: new ManualClock() });
  fs.writeFile(`${ROOT}/a.txt`, 'a');
  fs.writeFile(`${ROOT}/folder/b.txt`, 'b');
  fs.writeFile(`${ROOT}/folder/sub/c.txt`, 'c');
  return fs;
}

async function scan(fs: MemoryFileSystem | CountingFileSystem, options: Partial<Parameters<LocalScanner['scan']>[2]> = {}, scannerOptions = {}): Promise<Map<string, LocalObservation>> {
  const { sink, byPath } = collector();
  await new LocalScanner({ fs, ...scannerOptions }).scan(ROOT, sink, { rules, ...options });
  return byPath;
}

describe('LocalScanner on the in-memory file system', () => {
  it('reports a file without read permission and scans everything else', async () => {
    const fs = tree();
    fs.chmod(`${ROOT}/folder/b.txt`, 0o000);
    const byPath = await scan(fs);
    const stat = await fs.lstat(`${ROOT}/folder/b.txt`);
    // With its signature: a synced file renamed to it moves instead of reading as deleted (seed 61160).
    const file = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev };
    expect(byPath.get('folder/b.txt')).toEqual({ kind: 'not-synced', relPath: 'folder/b.txt', reason: 'UNREADABLE', detail: 'cannot read the file: EACCES', subtreeUnknown: false, file });
    expect(byPath.get('folder/sub/c.txt')?.kind).toBe('file');
    expect(byPath.get('a.txt')?.kind).toBe('file');
  });

  it('reports a folder it cannot list as a subtree it knows nothing about', async () => {
    const fs = tree();
    fs.chmod(`${ROOT}/folder/sub`, 0o000);
    const byPath = await scan(fs);
    expect(byPath.get('folder/sub')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', subtreeUnknown: true });
    expect(byPath.has('folder/sub/c.txt')).toBe(false);
    expect(byPath.get('folder/b.txt')?.kind).toBe('file');
  });

  it('reports entries of a listable but untraversable folder one by one', async () => {
    const fs = tree();
    fs.chmod(`${ROOT}/folder`, 0o600);
    const byPath = await scan(fs);
    expect(byPath.get('folder/b.txt')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', detail: 'cannot read its attributes: EACCES' });
    expect(byPath.get('folder/sub')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', subtreeUnknown: true });
  });

  it('reports I/O errors as UNREADABLE with the errno', async () => {
    const fs = tree();
    fs.injectFault(`${ROOT}/a.txt`, 'EIO');
    expect((await scan(fs)).get('a.txt')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', detail: 'cannot read its attributes: EIO' });
  });

  it('reports names and depths the service cannot take, and does not walk into such folders', async () => {
    const fs = tree();
    fs.writeFile(`${ROOT}/${'é'.repeat(128)}.png`, 'long');
    fs.writeFile(`${ROOT}/folder/sub/deeper/d.txt`, 'd');
    fs.writeFile(`${ROOT}/ bad folder/inside.txt`, 'x');
    const byPath = await scan(fs, {}, { maxFolderDepth: 2 });
    expect(summarise(byPath.values())).toEqual({
      ' bad folder': 'not-synced:INVALID_NAME',
      'a.txt': 'file',
      folder: 'directory',
      'folder/b.txt': 'file',
      'folder/sub': 'directory',
      'folder/sub/c.txt': 'file',
      'folder/sub/deeper': 'not-synced:TOO_LONG',
      [`${'é'.repeat(128)}.png`]: 'not-synced:TOO_LONG',
    });
    expect(byPath.get(' bad folder')).toMatchObject({ subtreeUnknown: true, detail: 'name starts or ends with white space' });
  });

  it('syncs the composed one of NFC/NFD twins and reports the other at its own spelling, in scans and rescans', async () => {
    const fs = tree();
    const nfc = 'caf\u00e9.png';
    const nfd = nfc.normalize('NFD');
    fs.writeFile(`${ROOT}/${nfc}`, 'one');
    fs.writeFile(`${ROOT}/${nfd}`, 'two');
    const byPath = await scan(fs);
    expect(byPath.get(nfc)).toMatchObject({ kind: 'file', size: 3 });
    expect(byPath.get(nfd)).toMatchObject({ kind: 'not-synced', reason: 'NAME_CLASH', subtreeUnknown: true });
    expect(byPath.get(nfd)).toHaveProperty('detail', expect.stringContaining('only the composed one syncs'));
    // A watcher's hint (NFC) finds both; the report's own path, looked at again, is still reported.
    const hinted = collector();
    await new LocalScanner({ fs }).rescan(ROOT, [nfc], hinted.sink, { rules });
    expect(hinted.byPath.get(nfc)).toMatchObject({ kind: 'file' });
    expect(hinted.byPath.get(nfd)).toMatchObject({ kind: 'not-synced', reason: 'NAME_CLASH' });
    const again = collector();
    await new LocalScanner({ fs }).rescan(ROOT, [nfd], again.sink, { rules });
    expect([...again.byPath.values()]).toEqual([byPath.get(nfd)]);
    // The composed one removed: the report's rescan finds the other as the name itself, and its report gone.
    fs.remove(`${ROOT}/${nfc}`);
    const after = collector();
    await new LocalScanner({ fs }).rescan(ROOT, [nfd], after.sink, { rules });
    expect(after.byPath.get(nfd)).toEqual({ kind: 'gone', relPath: nfd });
    expect(after.byPath.get(nfc)).toMatchObject({ kind: 'file', size: 3 });
  });

  it('reports a decomposed twin with its file signature when it looks at that file (seed 86359)', async () => {
    // A synced file renamed to the twin's spelling is still there: known by its signature, it waits
    // instead of reading as deleted (its asset binned, then uploaded again once the twin left).
    const fs = tree();
    const nfc = 'caf\u00e9.png';
    const nfd = nfc.normalize('NFD');
    fs.writeFile(`${ROOT}/${nfc}`, 'one');
    fs.writeFile(`${ROOT}/${nfd}`, 'two');
    const stat = await fs.lstat(`${ROOT}/${nfd}`);
    const file = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev };
    expect((await scan(fs)).get(nfd)).toMatchObject({ kind: 'not-synced', reason: 'NAME_CLASH', file });
    const own = collector();
    await new LocalScanner({ fs }).rescan(ROOT, [nfd], own.sink, { rules });
    expect(own.byPath.get(nfd)).toMatchObject({ kind: 'not-synced', reason: 'NAME_CLASH', file });
    // Found as the namesake of the hinted composed spelling, it is not looked at: no signature.
    const hinted = collector();
    await new LocalScanner({ fs }).rescan(ROOT, [nfc], hinted.sink, { rules });
    expect(hinted.byPath.get(nfd)).not.toHaveProperty('file');
  });

  it('reports a name spelled two ways, neither composed, once at its NFC path', async () => {
    const fs = new MemoryFileSystem({ clock: new ManualClock() });
    fs.writeFile(`${ROOT}/e\u0301\u0323.txt`, 'one');
    fs.writeFile(`${ROOT}/e\u0323\u0301.txt`, 'two');
    const byPath = await scan(fs);
    expect(summarise(byPath.values())).toEqual({ '\u1eb9\u0301.txt': 'not-synced:NAME_CLASH' });
    const rescanned = collector();
    await new LocalScanner({ fs }).rescan(ROOT, ['\u1eb9\u0301.txt'], rescanned.sink, { rules });
    expect(rescanned.byPath.get('\u1eb9\u0301.txt')).toMatchObject({ kind: 'not-synced', reason: 'NAME_CLASH', subtreeUnknown: true });
  });

  it('leaves files that have not settled unread and reports them pending', async () => {
    const fs = new CountingFileSystem(tree());
    const isSettled = vi.fn((relPath: string) => relPath !== 'folder/b.txt');
    const byPath = await scan(fs, { isSettled });
    expect(byPath.get('folder/b.txt')).toMatchObject({ kind: 'pending', size: 1 });
    expect(fs.opened.some((path) => path.endsWith('b.txt'))).toBe(false);
    expect(isSettled).toHaveBeenCalledTimes(3);
  });

  it('never reports a hash of a file that changed while it was read', async () => {
    const memory = tree();
    const fs = new CountingFileSystem(memory);
    fs.beforeRead = (path) => {
      if (path.endsWith('a.txt')) memory.appendFile(path, ' and more');
    };
    const isSettled = vi.fn(() => true);
    const byPath = await scan(fs, { isSettled });
    expect(byPath.get('a.txt')).toMatchObject({ kind: 'pending', size: 'a and more'.length });
    expect(isSettled).toHaveBeenCalledWith('a.txt', expect.objectContaining({ size: 'a and more'.length }));
  });

  it('reports what a file was swapped for between listing and hashing: a new file, a FIFO, a symlink', async () => {
    const memory = tree();
    memory.writeFile(`${ROOT}/fifo-soon`, 'x');
    memory.writeFile(`${ROOT}/link-soon`, 'x');
    const fs = new CountingFileSystem(memory);
    fs.beforeOpen = (path) => {
      if (path.endsWith('a.txt')) {
        memory.remove(path);
        memory.writeFile(path, 'a'); // same size and content, new inode
      }
      if (path.endsWith('fifo-soon')) {
        memory.remove(path);
        memory.mkfifo(path);
      }
      if (path.endsWith('link-soon')) {
        memory.remove(path);
        memory.symlink('a.txt', path);
      }
    };
    const byPath = await scan(fs);
    expect(byPath.get('a.txt')).toMatchObject({ kind: 'pending' });
    expect(byPath.get('fifo-soon')).toMatchObject({ kind: 'not-synced', reason: 'SPECIAL_FILE' });
    expect(byPath.get('link-soon')).toMatchObject({ kind: 'not-synced', reason: 'SYMLINK' });
  });

  it('rescans a path below an unreadable folder as a subtree it knows nothing about', async () => {
    const fs = tree();
    fs.chmod(`${ROOT}/folder`, 0o600);
    const { sink, byPath } = collector();
    await new LocalScanner({ fs }).rescan(ROOT, ['folder/sub/c.txt'], sink, { rules });
    expect(byPath.get('folder/sub/c.txt')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', subtreeUnknown: true });
  });

  it('fails the scan when the root cannot be listed, or when the sink throws, or when aborted', async () => {
    const fs = tree();
    fs.chmod(ROOT, 0o000);
    await expect(scan(fs)).rejects.toMatchObject({ code: 'ROOT_UNREADABLE' });
    fs.chmod(ROOT, 0o755);
    const scanner = new LocalScanner({ fs });
    const failing = (): void => {
      throw new Error('disk full');
    };
    await expect(scanner.scan(ROOT, failing, { rules })).rejects.toThrow('disk full');
    await expect(scanner.scan(ROOT, () => undefined, { rules, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('leaves a file unread when allowed: opened and checked, never read, and kept unread while unchanged', async () => {
    const counting = new CountingFileSystem(tree());
    const allowed = new Set(['folder/b.txt']);
    const mayLeaveUnread = (relPath: string): boolean => allowed.has(relPath);
    const first = collector();
    const summary = await new LocalScanner({ fs: counting }).scan(ROOT, first.sink, { rules, mayLeaveUnread });
    expect(first.byPath.get('folder/b.txt')).toMatchObject({ kind: 'file', md5: null, size: 1 });
    expect(first.byPath.get('a.txt')).toMatchObject({ kind: 'file', md5: '0cc175b9c0f1b6a831c399e269772661' });
    expect(counting.opened.filter((path) => path.endsWith('b.txt'))).toHaveLength(1);
    expect(counting.readSizes).toHaveLength(2); // a.txt and c.txt only
    expect(summary).toMatchObject({ hashedFiles: 2, unreadFiles: 1 });

    const previous = new Map(first.all.flatMap((entry) => (entry.kind === 'file' ? [[entry.relPath, entry] as const] : [])));
    counting.reset();
    const again = collector();
    await new LocalScanner({ fs: counting }).scan(ROOT, again.sink, { rules, mayLeaveUnread, previous: (relPath) => previous.get(relPath) });
    expect(again.byPath.get('folder/b.txt')).toMatchObject({ md5: null });
    expect(counting.opened).toEqual([]);

    // No longer allowed (something synced at the path, say): the same unchanged file is read now.
    allowed.clear();
    const read = collector();
    await new LocalScanner({ fs: counting }).scan(ROOT, read.sink, { rules, mayLeaveUnread, previous: (relPath) => previous.get(relPath) });
    expect(read.byPath.get('folder/b.txt')).toMatchObject({ md5: '92eb5ffee6ae2fec3ad71c777531578f' });
  });

  it('reports an unread file that cannot be opened, or was swapped after listing, as the hashing path does', async () => {
    const fs = tree();
    fs.chmod(`${ROOT}/folder/b.txt`, 0o000);
    const counting = new CountingFileSystem(fs);
    counting.beforeOpen = (path) => {
      if (path.endsWith('c.txt')) fs.writeFile(`${ROOT}/folder/sub/c.txt`, 'longer now');
    };
    const byPath = await scan(counting, { mayLeaveUnread: () => true });
    expect(byPath.get('folder/b.txt')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE', detail: 'cannot read the file: EACCES' });
    expect(byPath.get('folder/sub/c.txt')).toMatchObject({ kind: 'pending', size: 10 });
    expect(byPath.get('a.txt')).toMatchObject({ kind: 'file', md5: null });
  });

  it('streams a large tree with a bounded hash backlog, in the same order every run', async () => {
    const build = (): MemoryFileSystem => {
      const fs = new MemoryFileSystem({ clock: new ManualClock() });
      for (let dir = 0; dir < 20; dir++) for (let file = 0; file < 150; file++) fs.writeFile(`${ROOT}/d${dir}/f${file}.txt`, `${dir}/${file}`);
      return fs;
    };
    const order = async (): Promise<string[]> => {
      const { sink, all } = collector();
      await new LocalScanner({ fs: build(), hashConcurrency: 1 }).scan(ROOT, sink, { rules });
      return all.map((observation) => `${observation.kind} ${observation.relPath}`);
    };
    const first = await order();
    expect(first.filter((line) => line.startsWith('file '))).toHaveLength(3000);
    expect(await order()).toEqual(first);
  });
});

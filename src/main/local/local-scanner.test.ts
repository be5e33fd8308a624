import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CountingFileSystem, collector, summarise } from '../../../test/support/local-fs-helpers.js';
import { HASH_READ_BYTES } from './hash-file.js';
import { IgnoreRules } from './ignore-rules.js';
import { LocalScanner } from './local-scanner.js';
import { NodeFileSystem } from './node-file-system.js';
import type { LocalFile, LocalObservation, PreviousFile } from './observations.js';
import { md5Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const NFC_CAFE = 'caf\u00e9.png';
const NFD_RESUME = 'Re\u0301sume\u0301.pdf';
const NFD_FOLDER = 'U\u0308ni\u0308code';
const NFC_FOLDER = NFD_FOLDER.normalize('NFC');
const isRoot = process.getuid?.() === 0;

function mkfifo(path: string): boolean {
  try {
    execFileSync('mkfifo', [path]);
    return true;
  } catch {
    return false;
  }
}

/** Observations as a map of LocalFile by path, i.e. the `previous` snapshot of the next scan. */
function snapshotOf(observations: Iterable<LocalObservation>): Map<string, PreviousFile> {
  const map = new Map<string, PreviousFile>();
  for (const observation of observations) if (observation.kind === 'file') map.set(observation.relPath, observation);
  return map;
}

describe('LocalScanner on a real directory', () => {
  let root: string;
  let seven: Buffer;
  let hasFifo = false;

  beforeEach(() => {
    root = tempDir('asset-sync-scan-');
    const put = (relPath: string, data: string | Buffer): void => {
      mkdirSync(join(root, relPath, '..'), { recursive: true });
      writeFileSync(join(root, relPath), data);
    };
    seven = randomBytes(7 * 1024 * 1024);
    put(NFC_CAFE, 'coffee');
    put(NFD_RESUME, 'cv');
    put(`${NFD_FOLDER}/inner.txt`, 'umlauts');
    put('🎨 palette.svg', '<svg/>');
    put('with spaces/a b c.txt', 'abc');
    put('hash#tag %20 100%.txt', 'percent');
    put('empty.bin', '');
    put('big/seven.bin', seven);
    put('.DS_Store', 'finder');
    put('draft.tmp', 'scratch');
    put('.asset-sync/root.json', '{}');
    put('trailing space ', 'x');
    put('bad\u0001name', 'x');
    mkdirSync(join(root, 'empty-folder'));
    symlinkSync(NFC_CAFE, join(root, 'link-to-file'));
    symlinkSync(join(root, 'big'), join(root, 'link-dir'));
    hasFifo = mkfifo(join(root, 'pipe'));
  });


  it('reports files, folders and what is not synced, NFC-normalised, without following links', async () => {
    const { sink, byPath } = collector();
    const summary = await new LocalScanner({ fs: new NodeFileSystem() }).scan(root, sink, { rules: new IgnoreRules() });
    const expected: Record<string, string> = {
      '🎨 palette.svg': 'file',
      'bad\u0001name': 'not-synced:INVALID_NAME',
      big: 'directory',
      'big/seven.bin': 'file',
      [NFC_CAFE]: 'file',
      [NFD_RESUME.normalize('NFC')]: 'file',
      [NFC_FOLDER]: 'directory',
      [`${NFC_FOLDER}/inner.txt`]: 'file',
      'empty-folder': 'directory',
      'empty.bin': 'file',
      'hash#tag %20 100%.txt': 'file',
      'link-dir': 'not-synced:SYMLINK',
      'link-to-file': 'not-synced:SYMLINK',
      'trailing space ': 'not-synced:INVALID_NAME',
      'with spaces': 'directory',
      'with spaces/a b c.txt': 'file',
    };
    if (hasFifo) expected.pipe = 'not-synced:SPECIAL_FILE';
    expect(summarise(byPath.values())).toEqual(expected);
    expect(summary).toMatchObject({ files: 8, directories: 4, hashedFiles: 8, hashedBytes: seven.length + 6 + 2 + 7 + 6 + 3 + 7 });

    const big = byPath.get('big/seven.bin') as LocalFile;
    const disk = lstatSync(join(root, 'big/seven.bin'));
    expect(big).toEqual({ kind: 'file', relPath: 'big/seven.bin', size: seven.length, mtimeMs: disk.mtimeMs, ino: disk.ino, dev: disk.dev, md5: md5Hex(seven) });
    expect(byPath.get('empty.bin')).toMatchObject({ size: 0, md5: md5Hex('') });
    expect(byPath.get(NFD_RESUME.normalize('NFC'))).toMatchObject({ md5: md5Hex('cv') });
  });

  it('says which not-synced paths are folders, so the window can call them folders', async () => {
    mkdirSync(join(root, 'Old drafts '));
    writeFileSync(join(root, 'Old drafts ', 'draft.txt'), 'inside');
    const { sink, byPath } = collector();
    await new LocalScanner({ fs: new NodeFileSystem() }).scan(root, sink, { rules: new IgnoreRules() });
    expect(byPath.get('Old drafts ')).toMatchObject({ kind: 'not-synced', reason: 'INVALID_NAME', isFolder: true });
    expect(byPath.get('trailing space ')).toMatchObject({ kind: 'not-synced', reason: 'INVALID_NAME' });
    expect(byPath.get('trailing space ')).not.toHaveProperty('isFolder');
    expect(byPath.get('link-dir')).not.toHaveProperty('isFolder');
  });

  it('reports an unreadable file and scans everything else', async (context) => {
    // As root, chmod 000 does not stop a read, so the real case only runs for other users; the
    // in-memory twin covers it everywhere (local-scanner-memory.test.ts).
    if (isRoot) context.skip();
    chmodSync(join(root, 'with spaces/a b c.txt'), 0o000);
    const { sink, byPath } = collector();
    await new LocalScanner({ fs: new NodeFileSystem() }).scan(root, sink, { rules: new IgnoreRules() });
    expect(byPath.get('with spaces/a b c.txt')).toMatchObject({ kind: 'not-synced', reason: 'UNREADABLE' });
    expect(byPath.get('big/seven.bin')?.kind).toBe('file');
  });

  it('reads only files whose size, mtime or inode changed, in 1 MiB reads', async () => {
    const fs = new CountingFileSystem(new NodeFileSystem());
    const scanner = new LocalScanner({ fs });
    const first = collector();
    await scanner.scan(root, first.sink, { rules: new IgnoreRules() });
    expect(fs.readSizes.every((size) => size === HASH_READ_BYTES)).toBe(true);
    expect(fs.opened.filter((path) => path.endsWith('seven.bin'))).toHaveLength(1);
    const previous = snapshotOf(first.all);

    fs.reset();
    const unchanged = collector();
    const summary = await scanner.scan(root, unchanged.sink, { rules: new IgnoreRules(), previous: (relPath) => previous.get(relPath) });
    expect(fs.opened).toEqual([]);
    expect(summary.hashedFiles).toBe(0);
    expect(snapshotOf(unchanged.all)).toEqual(previous);

    appendFileSync(join(root, 'with spaces/a b c.txt'), 'd'); // size
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'empty.bin'), later, later); // mtime only
    const mtime = lstatSync(join(root, NFC_CAFE)).mtime;
    writeFileSync(join(root, 'replacement'), 'coffee');
    utimesSync(join(root, 'replacement'), mtime, mtime);
    renameSync(join(root, 'replacement'), join(root, NFC_CAFE)); // inode only (safe-save of the same bytes)
    fs.reset();
    const changed = collector();
    await scanner.scan(root, changed.sink, { rules: new IgnoreRules(), previous: (relPath) => previous.get(relPath) });
    expect(fs.opened.map((path) => path.slice(root.length + 1)).sort()).toEqual(['caf\u00e9.png', 'empty.bin', 'with spaces/a b c.txt']);
    expect(changed.byPath.get('with spaces/a b c.txt')).toMatchObject({ md5: md5Hex('abcd') });
    expect(changed.byPath.get(NFC_CAFE)).toMatchObject({ md5: md5Hex('coffee') });
  });

  it('rescans hinted paths: changed, new, deleted, a whole folder, NFD on disk, below a symlink', async () => {
    const fs = new CountingFileSystem(new NodeFileSystem());
    const scanner = new LocalScanner({ fs });
    const first = collector();
    await scanner.scan(root, first.sink, { rules: new IgnoreRules() });
    const previous = snapshotOf(first.all);

    rmSync(join(root, NFC_CAFE));
    writeFileSync(join(root, 'with spaces/a b c.txt'), 'changed');
    mkdirSync(join(root, 'new/deeper'), { recursive: true });
    writeFileSync(join(root, 'new/deeper/inner.txt'), 'inner');
    writeFileSync(join(root, 'new/.DS_Store'), 'ignored');
    rmSync(join(root, 'big'), { recursive: true });
    fs.reset();

    const { sink, byPath } = collector();
    await scanner.rescan(
      root,
      [NFC_CAFE, 'with spaces/a b c.txt', 'new', 'new/deeper/inner.txt', 'big', 'never-existed', `${NFC_FOLDER}/inner.txt`, 'link-dir/seven.bin', 'draft.tmp', NFD_RESUME.normalize('NFC')],
      sink,
      { rules: new IgnoreRules(), previous: (relPath) => previous.get(relPath) },
    );
    expect(summarise(byPath.values())).toEqual({
      big: 'gone',
      [NFC_CAFE]: 'gone',
      [NFD_RESUME.normalize('NFC')]: 'file',
      [`${NFC_FOLDER}/inner.txt`]: 'file',
      'link-dir/seven.bin': 'gone',
      'never-existed': 'gone',
      new: 'directory',
      'new/deeper': 'directory',
      'new/deeper/inner.txt': 'file',
      'with spaces/a b c.txt': 'file',
    });
    expect(byPath.get('with spaces/a b c.txt')).toMatchObject({ md5: md5Hex('changed') });
    // Only the new and the changed file were read; the NFD ones were unchanged.
    expect(fs.opened.map((path) => path.slice(root.length + 1)).sort()).toEqual(['new/deeper/inner.txt', 'with spaces/a b c.txt']);
  });

  it('rejects with ROOT_UNREADABLE when the root is not there, instead of reporting it empty', async () => {
    const scanner = new LocalScanner({ fs: new NodeFileSystem() });
    await expect(scanner.scan(join(root, 'nope'), () => undefined, { rules: new IgnoreRules() })).rejects.toMatchObject({ code: 'ROOT_UNREADABLE' });
    await expect(scanner.rescan(join(root, 'nope'), ['a'], () => undefined, { rules: new IgnoreRules() })).rejects.toMatchObject({ code: 'ROOT_UNREADABLE' });
  });
});

import { describe, expect, it } from 'vitest';
import type { FileStat } from './file-system.js';
import { PathLocator } from './locate-path.js';
import { MemoryFileSystem } from './memory-file-system.js';

/** Records every lstat, to tell which entries a lookup looked at. */
class LstatRecording extends MemoryFileSystem {
  readonly lstats: string[] = [];
  override lstat(path: string): Promise<FileStat> {
    this.lstats.push(path);
    return super.lstat(path);
  }
}

describe('PathLocator.onDiskPath', () => {
  it('spells the path as on disk and checks each directory once per locator, never the entry itself', async () => {
    const fs = new LstatRecording();
    fs.writeFile('/root/U\u0308ber/Caf\u0065\u0301.txt', 'x');
    fs.writeFile('/root/U\u0308ber/plain.txt', 'y');
    const locator = new PathLocator(fs, '/root');

    expect(await locator.onDiskPath('\u00dcber/Caf\u00e9.txt')).toEqual({ kind: 'named', absPath: '/root/U\u0308ber/Cafe\u0301.txt' });
    expect(await locator.onDiskPath('\u00dcber/plain.txt')).toEqual({ kind: 'named', absPath: '/root/U\u0308ber/plain.txt' });
    // An ASCII name has one spelling: it is named without being looked for (the caller's open finds out).
    expect(await locator.onDiskPath('\u00dcber/not-there.txt')).toEqual({ kind: 'named', absPath: '/root/U\u0308ber/not-there.txt' });
    expect(fs.lstats).toEqual(['/root/U\u0308ber']);
  });

  it('answers as locate does for what cannot hold the file', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/outside');
    fs.mkdirpSync('/root/real');
    fs.symlink('/outside', '/root/escape');
    fs.writeFile('/root/file.txt', 'x');
    const locator = new PathLocator(fs, '/root');

    expect(await locator.onDiskPath('escape/x.txt')).toEqual({ kind: 'blocked', at: 'escape', what: 'symlink' });
    expect(await locator.onDiskPath('file.txt/x.txt')).toEqual({ kind: 'blocked', at: 'file.txt', what: 'not-directory' });
    expect(await locator.onDiskPath('gone/x.txt')).toEqual({ kind: 'missing', absPath: '/root/gone/x.txt' });
    // A non-ASCII name is matched against the listing, so one that is not there is missing.
    expect(await locator.onDiskPath('real/\u00e9t\u00e9.txt')).toEqual({ kind: 'missing', absPath: '/root/real/\u00e9t\u00e9.txt' });
  });

  it('finds each spelling of a name spelled two ways by its own spelling, and reports two spellings of neither as a clash', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/root/\u00e9.txt', 'nfc');
    fs.writeFile('/root/e\u0301.txt', 'nfd');
    const locator = new PathLocator(fs, '/root');
    expect(await locator.onDiskPath('\u00e9.txt')).toEqual({ kind: 'named', absPath: '/root/\u00e9.txt' });
    expect(await locator.locate('\u00e9.txt')).toMatchObject({ kind: 'found', absPath: '/root/\u00e9.txt', namesakes: ['e\u0301.txt'] });
    expect(await locator.locate('e\u0301.txt')).toMatchObject({ kind: 'found', absPath: '/root/e\u0301.txt', namesakes: ['\u00e9.txt'] });

    const neither = new MemoryFileSystem();
    neither.writeFile('/root/e\u0301\u0323.txt', 'nfd');
    neither.writeFile('/root/e\u0323\u0301.txt', 'another order');
    expect(await new PathLocator(neither, '/root').onDiskPath('\u1eb9\u0301.txt')).toEqual({ kind: 'clash', at: '\u1eb9\u0301.txt' });
  });
});

describe('PathLocator.locate', () => {
  it('still lstats the entry itself', async () => {
    const fs = new LstatRecording();
    fs.writeFile('/root/a/b.txt', 'x');
    fs.symlink('/root/a/b.txt', '/root/a/link.txt');
    const locator = new PathLocator(fs, '/root');

    expect(await locator.locate('a/b.txt')).toMatchObject({ kind: 'found', absPath: '/root/a/b.txt', stat: { kind: 'file', size: 1 } });
    expect(await locator.locate('a/link.txt')).toMatchObject({ kind: 'found', stat: { kind: 'symlink' } });
    expect(await locator.locate('a/none.txt')).toEqual({ kind: 'missing', absPath: '/root/a/none.txt' });
    expect(fs.lstats).toEqual(['/root/a', '/root/a/b.txt', '/root/a/link.txt', '/root/a/none.txt']);
  });
});

describe('PathLocator with exactNames', () => {
  it('finds a name on a case-insensitive disk only as it is spelled there, folders included', async () => {
    const fs = new MemoryFileSystem({ names: 'case-insensitive' });
    fs.writeFile('/root/Brand/Logo.png', 'x');
    fs.writeFile('/root/Brand/caf\u0065\u0301.txt', 'y');
    const loose = new PathLocator(fs, '/root');
    const exact = new PathLocator(fs, '/root', { exactNames: true });

    // An lstat of either spelling answers on such a disk: the plain locator takes `logo.png` for the file.
    expect(await loose.locate('Brand/logo.png')).toMatchObject({ kind: 'found', absPath: '/root/Brand/logo.png' });
    expect(await exact.locate('Brand/logo.png')).toEqual({ kind: 'missing', absPath: '/root/Brand/logo.png' });
    expect(await exact.locate('brand/Logo.png')).toEqual({ kind: 'missing', absPath: '/root/brand/Logo.png' });
    expect(await exact.locate('Brand/Logo.png')).toMatchObject({ kind: 'found', absPath: '/root/Brand/Logo.png' });
    // NFC relPaths still find an NFD name.
    expect(await exact.locate('Brand/caf\u00e9.txt')).toMatchObject({ kind: 'found', absPath: '/root/Brand/cafe\u0301.txt' });
  });
});

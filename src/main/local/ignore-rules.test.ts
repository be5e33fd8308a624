import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { CountingFileSystem, collector, summarise } from '../../../test/support/local-fs-helpers.js';
import { DEFAULT_IGNORE_PATTERNS, matchesDefaultIgnore } from './default-ignores.js';
import { IgnoreRules, loadIgnoreRules } from './ignore-rules.js';
import { LocalScanner } from './local-scanner.js';
import { MemoryFileSystem } from './memory-file-system.js';

const SAMPLES = [
  '.DS_Store', '.ds_store', 'Thumbs.db', 'THUMBS.DB', 'desktop.ini', '~$report.docx', 'report.tmp', 'REPORT.TMP', '.file.swp',
  '.~lock.report.odt#', '.~lock.report.odt', 'movie.mp4.crdownload', 'file.part', 'file.partial', 'page.download', 'backup~',
  '.asset-sync', '.assetsyncignore', '.Trash-1000', '$RECYCLE.BIN', 'System Volume Information', '._photo.jpg', 'Icon\r',
  'layout.idlk', '.goutputstream-ABC123', '.fuse_hidden0001', '.Spotlight-V100',
  // Not ignored:
  'photo.jpg', 'Icon', 'Icons', 'my.tmp.png', 'tilde~name.png', 'part', '.part.png', 'lock.odt#', 'Thumbs.db.png', 'report.docx', '$recycle', '_photo.jpg',
];

describe('default ignore rules', () => {
  it('agree with the ignore package reading the same patterns, at any depth', () => {
    const reference = ignore().add([...DEFAULT_IGNORE_PATTERNS]);
    for (const name of SAMPLES) {
      expect(matchesDefaultIgnore(name), name).toBe(reference.ignores(name));
      expect(new IgnoreRules().ignores(`some/folder/${name}`, false), name).toBe(reference.ignores(`some/folder/${name}`));
    }
    expect(SAMPLES.filter((name) => matchesDefaultIgnore(name))).toHaveLength(26); // all above "Not ignored" but .~lock.report.odt (no #)
  });

  it('ignore everything below an ignored folder', () => {
    const rules = new IgnoreRules();
    expect(rules.ignores('$RECYCLE.BIN/S-1-5/file.png', false)).toBe(true);
    expect(rules.ignores('.asset-sync/downloads/x.partial', false)).toBe(true);
    expect(rules.ignores('folder/.Trash-1000/files/a.png', false)).toBe(true);
    expect(rules.ignores('folder/a.png', false)).toBe(false);
    expect(rules.ignores('', true)).toBe(false);
  });
});

describe('.assetsyncignore', () => {
  const rules = new IgnoreRules(['\uFEFF# comment', '*.psd', '!*.part', 'build/', '/top-only.txt', 'docs/*.md', '!docs/README.md', '!.asset-sync', '!.assetsyncignore', '!$RECYCLE.BIN/keep.txt'].join('\n'));

  it.each([
    ['art.psd', false, true],
    ['deep/art.PSD', false, true],
    ['download.part', false, false],
    ['other.crdownload', false, true],
    ['build', true, true],
    ['build', false, false],
    ['a/build/x.png', false, true],
    ['top-only.txt', false, true],
    ['a/top-only.txt', false, false],
    ['docs/a.md', false, true],
    ['docs/README.md', false, false],
    ['docs/sub/a.md', false, false],
    ['comment', false, false],
    ['.asset-sync', true, true],
    ['.asset-sync/root.json', false, true],
    ['.assetsyncignore', false, true],
    ['$RECYCLE.BIN/keep.txt', false, true],
    ['photo.jpg', false, false],
  ])('%s (directory: %s) ignored: %s', (relPath, isDirectory, ignored) => {
    expect(rules.ignores(relPath, isDirectory)).toBe(ignored);
  });

  it('keeps answering the same after its cache is reset', () => {
    for (let index = 0; index < 60_000; index++) rules.ignoresEntry(`f${index}.psd`, false);
    expect(rules.ignores('again.psd', false)).toBe(true);
    expect(rules.ignores('again.part', false)).toBe(false);
  });

  it('is loaded from the root; missing means defaults; unreadable is an error, never "no rules"', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/root');
    expect((await loadIgnoreRules(fs, '/root')).ignores('a.psd', false)).toBe(false);
    fs.writeFile('/root/.assetsyncignore', '*.psd\n');
    expect((await loadIgnoreRules(fs, '/root')).ignores('a.psd', false)).toBe(true);
    fs.chmod('/root/.assetsyncignore', 0o000);
    await expect(loadIgnoreRules(fs, '/root')).rejects.toMatchObject({ code: 'IGNORE_FILE_UNREADABLE' });
    fs.remove('/root/.assetsyncignore');
    fs.mkdirpSync('/root/.assetsyncignore');
    await expect(loadIgnoreRules(fs, '/root')).rejects.toMatchObject({ code: 'IGNORE_FILE_UNREADABLE' });
  });

  it('shapes what the scanner reports and where it walks', async () => {
    const memory = new MemoryFileSystem();
    memory.writeFile('/root/.assetsyncignore', 'build/\n*.psd\n!keep.part\n');
    memory.writeFile('/root/art.psd', 'x');
    memory.writeFile('/root/keep.part', 'x');
    memory.writeFile('/root/drop.part', 'x');
    memory.writeFile('/root/build/out.png', 'x');
    memory.writeFile('/root/src/build/nested.png', 'x');
    memory.writeFile('/root/src/logo.png', 'x');
    memory.writeFile('/root/.asset-sync/root.json', '{}');
    const fs = new CountingFileSystem(memory);
    const { sink, byPath } = collector();
    await new LocalScanner({ fs }).scan('/root', sink, { rules: await loadIgnoreRules(fs, '/root') });
    expect(summarise(byPath.values())).toEqual({ 'keep.part': 'file', src: 'directory', 'src/logo.png': 'file' });
    expect(fs.listings).toBe(2); // the root and src: ignored folders are not even listed
  });
});

import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from './memory-file-system.js';
import { NodeFileSystem } from './node-file-system.js';
import { checkRelPath, resolveInsideRoot } from './resolve-inside-root.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('checkRelPath', () => {
  it.each([
    ['', 'PATH_ESCAPES_ROOT'],
    ['..', 'PATH_ESCAPES_ROOT'],
    ['../outside.txt', 'PATH_ESCAPES_ROOT'],
    ['a/../../outside.txt', 'PATH_ESCAPES_ROOT'],
    ['a/./b.txt', 'PATH_ESCAPES_ROOT'],
    ['a//b.txt', 'PATH_ESCAPES_ROOT'],
    ['a/', 'PATH_ESCAPES_ROOT'],
    ['/etc/passwd', 'PATH_ESCAPES_ROOT'],
    ['\\\\server\\share\\x', 'PATH_ESCAPES_ROOT'],
    ['C:\\Windows\\x', 'PATH_ESCAPES_ROOT'],
    ['c:relative', 'PATH_ESCAPES_ROOT'],
    ['a\0b.txt', 'PATH_ESCAPES_ROOT'],
    ['.asset-sync/root.json', 'ENGINE_PATH'],
    ['.Asset-Sync/root.json', 'ENGINE_PATH'],
  ])('refuses %j (%s)', (relPath, code) => {
    expect(() => checkRelPath(relPath)).toThrow(expect.objectContaining({ code }));
  });

  it.each([
    ['a.txt', ['a.txt']],
    ['Brand/Logos/logo.png', ['Brand', 'Logos', 'logo.png']],
    ['..hidden/...', ['..hidden', '...']],
    ['sub/.asset-sync/x', ['sub', '.asset-sync', 'x']],
    ['Re\u0301sume\u0301.pdf', ['R\u00e9sum\u00e9.pdf']],
  ])('accepts %j', (relPath, segments) => {
    expect(checkRelPath(relPath)).toEqual(segments);
  });

  it('refuses backslashes and colons on Windows only', () => {
    expect(() => checkRelPath('a\\..\\..\\x', 'win32')).toThrow(expect.objectContaining({ code: 'PATH_ESCAPES_ROOT' }));
    expect(() => checkRelPath('file.txt:stream', 'win32')).toThrow(expect.objectContaining({ code: 'PATH_ESCAPES_ROOT' }));
    expect(checkRelPath('a\\b', 'linux')).toEqual(['a\\b']);
  });
});

describe('resolveInsideRoot', () => {
  it('resolves existing and new paths, reusing folders spelled NFD on disk', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/root/U\u0308ber/a.txt', 'x');
    expect(await resolveInsideRoot(fs, '/root', 'plain/new.txt')).toBe('/root/plain/new.txt');
    expect(await resolveInsideRoot(fs, '/root', '\u00dcber/a.txt')).toBe('/root/U\u0308ber/a.txt');
    expect(await resolveInsideRoot(fs, '/root', '\u00dcber/new/b.txt')).toBe('/root/U\u0308ber/new/b.txt');
  });

  it('refuses paths through a symlinked or non-directory parent, and a final symlink', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/outside/secret.txt', 'x');
    fs.mkdirpSync('/root/real');
    fs.symlink('/outside', '/root/escape');
    fs.symlink('real', '/root/alias');
    fs.writeFile('/root/file.txt', 'x');
    fs.symlink('/outside/secret.txt', '/root/link.txt');
    await expect(resolveInsideRoot(fs, '/root', 'escape/secret.txt')).rejects.toMatchObject({ code: 'SYMLINK_IN_PATH' });
    await expect(resolveInsideRoot(fs, '/root', 'alias/new.txt')).rejects.toMatchObject({ code: 'SYMLINK_IN_PATH' });
    await expect(resolveInsideRoot(fs, '/root', 'escape/deeper/new.txt')).rejects.toMatchObject({ code: 'SYMLINK_IN_PATH' });
    await expect(resolveInsideRoot(fs, '/root', 'link.txt')).rejects.toMatchObject({ code: 'SYMLINK_IN_PATH' });
    await expect(resolveInsideRoot(fs, '/root', 'file.txt/inner')).rejects.toMatchObject({ code: 'PATH_BLOCKED' });
    await expect(resolveInsideRoot(fs, '/root', '../outside/secret.txt')).rejects.toMatchObject({ code: 'PATH_ESCAPES_ROOT' });
  });

  it('refuses a symlinked parent on a real directory', async () => {
    const base = tempDir('asset-sync-confine-');
    mkdirSync(join(base, 'root/real'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(base, 'root/escape'));
    const fs = new NodeFileSystem();
    expect(await resolveInsideRoot(fs, join(base, 'root'), 'real/x.png')).toBe(join(base, 'root/real/x.png'));
    await expect(resolveInsideRoot(fs, join(base, 'root'), 'escape/x.png')).rejects.toMatchObject({ code: 'SYMLINK_IN_PATH' });
  });
});

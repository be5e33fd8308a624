import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFreedesktopTrash, deletionDate, trashDirOf, trashInfoPath } from './freedesktop-trash.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('freedesktop trash', () => {
  it('moves the file under files/ with an info/*.trashinfo saying where from and when', async () => {
    const dataHome = tempDir('trash-home-');
    const root = tempDir('trash-root-');
    const file = join(root, 'logo final #1.png');
    writeFileSync(file, 'bytes');
    const at = new Date(2026, 2, 1, 9, 24, 1).getTime();
    await createFreedesktopTrash({ dataHome, now: () => at })(file);

    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(dataHome, 'Trash/files/logo final #1.png'), 'utf8')).toBe('bytes');
    expect(readFileSync(join(dataHome, 'Trash/info/logo final #1.png.trashinfo'), 'utf8')).toBe(
      `[Trash Info]\nPath=${root.split('/').map(encodeURIComponent).join('/')}/logo%20final%20%231.png\nDeletionDate=2026-03-01T09:24:01\n`,
    );
  });

  it('never overwrites an earlier trashed file of the same name', async () => {
    const dataHome = tempDir('trash-home-');
    const root = tempDir('trash-root-');
    const trash = createFreedesktopTrash({ dataHome });
    for (const content of ['one', 'two', 'three']) {
      writeFileSync(join(root, 'a.txt'), content);
      await trash(join(root, 'a.txt'));
    }
    expect(readdirSync(join(dataHome, 'Trash/files')).sort()).toEqual(['a.2.txt', 'a.3.txt', 'a.txt']);
    expect(readdirSync(join(dataHome, 'Trash/info')).sort()).toEqual(['a.2.txt.trashinfo', 'a.3.txt.trashinfo', 'a.txt.trashinfo']);
    expect(readFileSync(join(dataHome, 'Trash/files/a.3.txt'), 'utf8')).toBe('three');
  });

  it('leaves no info behind when the file cannot be moved', async () => {
    const dataHome = tempDir('trash-home-');
    await expect(createFreedesktopTrash({ dataHome })(join(dataHome, 'missing.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(join(dataHome, 'Trash/info'))).toEqual([]);
  });

  it('finds the trash through XDG_DATA_HOME, else ~/.local/share', () => {
    expect(trashDirOf({ env: { XDG_DATA_HOME: '/data' } })).toBe('/data/Trash');
    expect(trashDirOf({ env: {} })).toMatch(/\.local\/share\/Trash$/);
    expect(trashInfoPath('/home/a b/ü.txt')).toBe('/home/a%20b/%C3%BC.txt');
    expect(deletionDate(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe('2026-01-02T03:04:05');
  });
});

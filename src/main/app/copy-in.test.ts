import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { copyPathInto, copyStreamInto, freeName, pathExists, placeWithoutOverwrite, type CopyProgress } from './copy-in.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const quiet: CopyProgress = { started: () => 0, bytes: () => undefined, finished: () => undefined };

describe('freeName', () => {
  it('adds (2), (3), … before the extension', async () => {
    const taken = new Set(['/d/a.png', '/d/a (2).png', '/d/notes', '/d/.env']);
    const exists = async (path: string): Promise<boolean> => taken.has(path);
    expect(await freeName('/d', 'b.png', exists)).toBe('b.png');
    expect(await freeName('/d', 'a.png', exists)).toBe('a (3).png');
    expect(await freeName('/d', 'notes', exists)).toBe('notes (2)');
    expect(await freeName('/d', '.env', exists)).toBe('.env (2)');
  });
});

describe('copying in', () => {
  it('copies a file and a folder, never moving them, and renames what exists', async () => {
    const source = tempDir();
    const target = tempDir();
    writeFileSync(join(source, 'a.png'), 'new');
    mkdirSync(join(source, 'Shots'));
    writeFileSync(join(source, 'Shots', 'b.png'), 'b');
    writeFileSync(join(target, 'a.png'), 'old');
    expect(await copyPathInto(join(source, 'a.png'), target, quiet)).toEqual({ copied: 1, renamed: [{ asked: 'a.png', named: 'a (2).png' }] });
    expect(await copyPathInto(join(source, 'Shots'), target, quiet)).toEqual({ copied: 1, renamed: [] });
    // A folder whose name is taken is renamed once; what it holds keeps its names inside the new folder.
    expect(await copyPathInto(join(source, 'Shots'), target, quiet)).toEqual({ copied: 1, renamed: [{ asked: 'Shots', named: 'Shots (2)' }] });
    expect(readFileSync(join(target, 'Shots (2)', 'b.png'), 'utf8')).toBe('b');
    expect(readFileSync(join(target, 'a.png'), 'utf8')).toBe('old');
    expect(readFileSync(join(target, 'a (2).png'), 'utf8')).toBe('new');
    expect(readFileSync(join(target, 'Shots', 'b.png'), 'utf8')).toBe('b');
    expect(await pathExists(join(source, 'a.png'))).toBe(true);
    expect(Math.abs(statSync(join(target, 'a (2).png')).mtimeMs - statSync(join(source, 'a.png')).mtimeMs)).toBeLessThan(1);
    expect(readdirSync(target).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a dropped stream under its folders, renaming only the file', async () => {
    const target = tempDir();
    mkdirSync(join(target, 'Shots'));
    writeFileSync(join(target, 'Shots', 'a.png'), 'old');
    const written = await copyStreamInto(Readable.from([Buffer.from('dropped')]), target, 'Shots/a.png', { size: 7, lastModified: 1_700_000_000_000 }, quiet);
    expect(written).toBe('Shots/a (2).png');
    expect(readFileSync(join(target, 'Shots', 'a (2).png'), 'utf8')).toBe('dropped');
    expect(statSync(join(target, 'Shots', 'a (2).png')).mtimeMs).toBe(1_700_000_000_000);
  });

  it('refuses a drop path that leaves the folder', async () => {
    const target = tempDir();
    await expect(copyStreamInto(Readable.from([Buffer.from('x')]), target, '../escape.png', { size: 1, lastModified: null }, quiet)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await pathExists(join(target, '..', 'escape.png'))).toBe(false);
  });
});

describe('placeWithoutOverwrite', () => {
  it('never replaces a file that took the chosen name while the copy ran', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.a.png.tmp'), 'copied');
    // The name was free when the copy began; a user saved a file under it meanwhile.
    writeFileSync(join(dir, 'a.png'), 'the user’s own');
    const placed = await placeWithoutOverwrite(join(dir, '.a.png.tmp'), dir, 'a.png', join(dir, 'a.png'));
    expect(placed).toBe(join(dir, 'a (2).png'));
    expect(readFileSync(join(dir, 'a.png'), 'utf8')).toBe('the user’s own');
    expect(readFileSync(placed, 'utf8')).toBe('copied');
    expect(readdirSync(dir).sort()).toEqual(['a (2).png', 'a.png']);
  });
});

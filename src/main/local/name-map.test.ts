import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from './memory-file-system.js';

const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

describe('the memory file system name modes', () => {
  it('exact: case and normalisation twins are two files', async () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/r/Logo.png', 'one');
    fs.writeFile('/r/logo.png', 'two');
    fs.writeFile(`/r/${NFC}`, 'three');
    expect(fs.kindOf(`/r/${NFD}`)).toBeUndefined();
    expect((await fs.readdir('/r')).map((entry) => entry.name)).toEqual(['Logo.png', NFC, 'logo.png']);
  });

  it('case-insensitive: twins are one entry, which keeps its last spelling', async () => {
    const fs = new MemoryFileSystem({ names: 'case-insensitive' });
    fs.writeFile('/r/Logo.png', 'one');
    fs.writeFile(`/r/${NFC}`, 'x');
    expect(fs.readText('/r/LOGO.PNG')).toBe('one');
    expect(fs.kindOf(`/r/${NFD}`)).toBe('file');
    await fs.rename('/r/Logo.png', '/r/logo.png');
    expect((await fs.readdir('/r')).map((entry) => entry.name)).toEqual(['caf\u00e9.txt', 'logo.png']);
    await expect(fs.openWrite('/r/LOGO.png', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('nfd: names are stored decomposed and found by either spelling', async () => {
    const fs = new MemoryFileSystem({ names: 'nfd' });
    fs.writeFile(`/r/${NFC}`, 'x');
    expect((await fs.readdir('/r')).map((entry) => entry.name)).toEqual([NFD]);
    expect(fs.readText(`/r/${NFC}`)).toBe('x');
    expect(fs.kindOf('/r/Cafe\u0301.txt')).toBeUndefined();
  });
});

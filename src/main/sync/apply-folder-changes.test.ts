import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../local/index.js';
import { spelledOnDisk } from './apply-folder-changes.js';

describe('spelledOnDisk', () => {
  const disk = (): MemoryFileSystem => {
    const fs = new MemoryFileSystem({ names: 'case-insensitive' });
    fs.mkdirpSync('/sync/A/c');
    return fs;
  };

  it('names the directory as the disk spells it', async () => {
    expect(await spelledOnDisk(disk(), '/sync', 'A/C')).toBe('c');
    expect(await spelledOnDisk(disk(), '/sync', 'A/E')).toBeUndefined();
    expect(await spelledOnDisk(disk(), '/sync', 'D/E/C')).toBeUndefined();
  });

  // Seed 121469: the user replaced folder `B` with a file while the service had twins `B/E/C` and
  // `B/E/c`; refused (`B is not a folder`), the lookup failed every read of the service's changes.
  it('finds none below a file or a symlink standing where a folder on the way should be', async () => {
    const fs = disk();
    fs.writeFile('/sync/B', 'a file now');
    fs.symlink('/elsewhere', '/sync/L');
    expect(await spelledOnDisk(fs, '/sync', 'B/E/C')).toBeUndefined();
    expect(await spelledOnDisk(fs, '/sync', 'B/C')).toBeUndefined();
    expect(await spelledOnDisk(fs, '/sync', 'L/C')).toBeUndefined();
  });
});

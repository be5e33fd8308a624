import { describe, expect, it } from 'vitest';
import { foldsCase } from './case-probe.js';
import { MemoryFileSystem } from './memory-file-system.js';
import type { NameMode } from './name-map.js';

function disk(names: NameMode): MemoryFileSystem {
  const fs = new MemoryFileSystem({ names });
  fs.mkdirpSync('/root/.asset-sync');
  return fs;
}

describe('foldsCase', () => {
  it.each([
    ['exact', false],
    ['nfd', false],
    ['case-insensitive', true],
  ] as const)('answers %s disks: %s', async (names, folds) => {
    expect(await foldsCase(disk(names), '/root')).toBe(folds);
  });

  it('answers nothing when the disk cannot be asked, so the caller asks again', async () => {
    const unmarked = new MemoryFileSystem({ names: 'case-insensitive' });
    unmarked.mkdirpSync('/root');
    expect(await foldsCase(unmarked, '/root')).toBeUndefined();
    const locked = disk('case-insensitive');
    locked.chmod('/root', 0o000);
    expect(await foldsCase(locked, '/root')).toBeUndefined();
  });
});

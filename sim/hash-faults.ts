/**
 * A user changing a file while the engine hashes it (or checks it before an upload): right after the
 * engine opened a file of the folder to read, the seed may have the user append to it. The hash must
 * then be refused (hash-file.ts compares the open handle's identity after reading), never recorded for
 * content that is no longer there. Drawn from a stream of its own, so the seed's other faults stay.
 */
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import type { Faults } from './faults.js';
import type { Prng } from './prng.js';
import type { UserWrites } from './user-writes.js';

/** Chance per file the engine opens to read, while faults are on. */
const RATE = 0.05;

export function editWhileHashed(input: { random: Prng; faults: Faults; disk: MemoryFileSystem; writes: UserWrites; root: string; trace: (line: string) => void }): (path: string) => void {
  const { random, faults, disk, writes, root, trace } = input;
  return (path) => {
    if (!faults.active || !path.startsWith(`${root}/`) || path.includes('/.asset-sync/') || disk.kindOf(path) !== 'file' || !random.chance(RATE)) return;
    disk.appendFile(path, writes.appended(disk.readText(path), '~'));
    trace(`fault changed-while-hashed on ${path.slice(root.length + 1)}`);
  };
}

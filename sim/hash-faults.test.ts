/**
 * The user's edit while a file is hashed writes a content no user wrote before, as every scenario write
 * does: the no-resurrection and no-version-goes-back checks tell writes apart by their bytes.
 */
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import { Faults, NO_FAULTS } from './faults.js';
import { editWhileHashed } from './hash-faults.js';
import { Prng } from './prng.js';
import { UserWrites } from './user-writes.js';

/** A stream whose every draw comes true: the edit happens on each open. */
class Always extends Prng {
  override chance(): boolean {
    return true;
  }
}

describe('edit while hashed', () => {
  it('gives two disks holding one download different bytes (seed 92570)', () => {
    // Both clients downloaded the colleague's `A/C/Logo.png`; each user appended while it was hashed.
    // Both appending `~` made one content of two writes: once the first client's user deleted its copy,
    // the second's edit read as those bytes coming back.
    const writes = new UserWrites();
    writes.wrote('logo');
    const disks = [new MemoryFileSystem(), new MemoryFileSystem()];
    for (const disk of disks) {
      disk.writeFile('/root/A/C/Logo.png', 'logo');
      const faults = new Faults(new Prng(1), NO_FAULTS, () => undefined);
      faults.active = true;
      editWhileHashed({ random: new Always(1), faults, disk, writes, root: '/root', trace: () => undefined })('/root/A/C/Logo.png');
    }
    const contents = disks.map((disk) => disk.readText('/root/A/C/Logo.png'));
    expect(contents).toEqual(['logo~', 'logo~~']);
    expect([...writes.written]).toEqual(['logo', 'logo~', 'logo~~']);
    expect(writes.gone.has('logo')).toBe(true);
  });
});

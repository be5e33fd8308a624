import { describe, expect, it } from 'vitest';
import { remapDone, remapWords } from './remap-words.js';

describe('remapWords', () => {
  it('says what each choice does with the old place, and that files on this computer stay', () => {
    const words = remapWords('/ReproA', '/ReproB', 2);
    expect(words.question).toBe('Sync this folder with /ReproB instead of /ReproA? Files on this computer stay where they are. What happens to what is already in /ReproA?');
    expect(words.options).toEqual([
      { choice: 'move', label: 'Move it to /ReproB', detail: '/ReproA and its 2 files move to /ReproB in the service. Nothing uploads again, and /ReproA is no longer there.' },
      { choice: 'leave', label: 'Leave it in /ReproA', detail: '/ReproA keeps its 2 files. This folder’s files upload to /ReproB, next to anything already there.' },
    ]);
  });

  it('offers no move where one folder cannot move: from the top, to the top, into itself', () => {
    const unavailable = (from: string, to: string): string | undefined => remapWords(from, to, 1).options[0]?.unavailable;
    expect(unavailable('/', '/Brand')).toBe('Everything in the service can’t move into one folder.');
    expect(unavailable('/Brand', '/')).toBe('/Brand can’t become the top of the library.');
    expect(unavailable('/Brand', '/Brand/Old')).toBe('/Brand can’t move into a folder inside itself.');
    expect(unavailable('/Brand', '/Brands')).toBeUndefined();
    expect(remapWords('/', '/Brand', 1).options[1]?.detail).toBe('The top of the library (/) keeps its 1 file. This folder’s files upload to /Brand, next to anything already there.');
  });

  it('says what was done', () => {
    expect(remapDone('/A', '/B', 'move')).toBe('Moved to /B, with its files. New files go there now.');
    expect(remapDone('/', '/B', 'leave')).toBe('Now syncing with /B; the top of the library (/) keeps its files. New files go to /B now.');
  });
});

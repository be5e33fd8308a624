/**
 * The conflict-then-folder-rename step (folder-steps.ts) on a memory disk, its passes played by hand:
 * the step looks at the tree again after each pass of the engine, which may have changed it under the
 * user's feet, as the scenario's single-action steps look before they act.
 */
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import { conflictThenFolderRename } from './folder-steps.js';
import { UserWrites } from './user-writes.js';

const root = '/home/user/Sync';

describe('a conflict made on purpose, then its folder renamed', () => {
  it('stops when its first pass put a file where the folder was (seed 101056)', async () => {
    const disk = new MemoryFileSystem();
    disk.mkdirpSync(`${root}/A`);
    disk.writeFile(`${root}/A (2)`, 'an asset named A');
    const client = { disk, names: 'exact' as const };
    const writes = new UserWrites();
    const colleagueWrites: string[] = [];
    const colleague = {
      write: (path: string): Promise<void> => {
        colleagueWrites.push(path);
        return Promise.resolve();
      },
    };
    // The pass follows the service: another client renamed folder A to D, so the file named A, numbered
    // beside the folder until then, takes its own name.
    const sync = (): Promise<void> => {
      disk.renameSync(`${root}/A`, `${root}/D`);
      disk.renameSync(`${root}/A (2)`, `${root}/A`);
      return Promise.resolve();
    };
    const note = await conflictThenFolderRename({ client, colleague, writes, root, sync }, { path: 'A/a.txt', content: 'c', to: 'D' });
    expect(note).toBe('stopped after the first sync: a file is where a folder should be');
    // Nothing written after the pass: no colleague's write, no second write of the user.
    expect(colleagueWrites).toEqual([]);
    expect([...writes.written]).toEqual(['c-1']);
    expect(disk.readText(`${root}/D/a.txt`)).toBe('c-1');
    expect(disk.readText(`${root}/A`)).toBe('an asset named A');
  });

  it('is skipped when a file is where its folder should be before it starts', async () => {
    const disk = new MemoryFileSystem();
    disk.writeFile(`${root}/A`, 'a file');
    const writes = new UserWrites();
    const sync = (): Promise<void> => Promise.reject(new Error('no pass expected'));
    const colleague = { write: (): Promise<void> => Promise.reject(new Error('no write expected')) };
    const note = await conflictThenFolderRename({ client: { disk, names: 'exact' as const }, colleague, writes, root, sync }, { path: 'A/a.txt', content: 'c', to: 'D' });
    expect(note).toBe('skipped: a file is where a folder should be');
    expect(writes.written.size).toBe(0);
  });
});

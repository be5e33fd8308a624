/**
 * The folder steps of `withFolderSteps` (scenario.ts) that need more than one user action: a conflict
 * made on purpose in a folder, then that folder renamed by the same user while the conflict waits. The
 * conflict must follow its original (and its copy) to the new folder: the status names paths that
 * exist, and resolving acts on the right file.
 */
import type { StoreQueries } from '../src/main/store/state-store.js';
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import type { NameMode } from '../src/main/local/name-map.js';
import type { RemoteView } from './remote-view.js';
import type { UserWrites } from './user-writes.js';

export interface FolderStepClient {
  disk: MemoryFileSystem;
  names: NameMode;
}

export interface ConflictRenameContext<C extends FolderStepClient> {
  client: C;
  colleague: Pick<RemoteView, 'write'>;
  writes: UserWrites;
  root: string;
  /** A pass of the client without faults: the conflict is the point, not the faults. */
  sync: (client: C) => Promise<unknown>;
}

/** A rename of `from` to `to` that only changes case, on a disk where both name one entry. */
export function sameEntry(names: NameMode, from: string, to: string): boolean {
  return names === 'case-insensitive' && from !== to && from.toLowerCase() === to.toLowerCase();
}

export async function conflictThenFolderRename<C extends FolderStepClient>(context: ConflictRenameContext<C>, step: { path: string; content: string; to: string }): Promise<string | undefined> {
  const { client, colleague, writes, root } = context;
  const { disk } = client;
  const abs = (rel: string): string => `${root}/${rel}`;
  const dir = step.path.slice(0, step.path.lastIndexOf('/'));
  const segments = step.path.split('/').slice(0, -1);
  const blocked = (): string | undefined => {
    for (let end = 1; end <= segments.length; end++) {
      const kind = disk.kindOf(abs(segments.slice(0, end).join('/')));
      if (kind !== undefined && kind !== 'directory') return 'a file is where a folder should be';
    }
    return disk.kindOf(abs(step.path)) === 'directory' ? 'a folder is there' : undefined;
  };
  const before = blocked();
  if (before !== undefined) return `skipped: ${before}`;
  const write = (content: string): void => {
    if (disk.kindOf(abs(step.path)) === 'file') writes.replaced(disk.readText(abs(step.path)));
    writes.wrote(content);
    disk.mkdirpSync(abs(dir));
    disk.writeFile(abs(step.path), content);
  };
  write(`${step.content}-1`);
  await context.sync(client);
  // The pass may have changed the tree under the step: a folder the service moved away, and a file of
  // its name (numbered beside it until then) taking its place (seed 101056). The user cannot write
  // there any more; the conflict is not made.
  const after = blocked();
  if (after !== undefined) return `stopped after the first sync: ${after}`;
  writes.wrote(`${step.content}-2`);
  await colleague.write(step.path, `${step.content}-2`);
  write(`${step.content}-3`);
  await context.sync(client);
  const there = disk.kindOf(abs(step.to));
  if (disk.kindOf(abs(dir)) !== 'directory' || (there !== undefined && !sameEntry(client.names, dir, step.to)) || `${step.to}/`.startsWith(`${dir}/`)) return 'folder not renamed';
  disk.renameSync(abs(dir), abs(step.to));
  return undefined;
}

/**
 * Conflicts that lost their original: the asset is synced in this client's folder, but not at the
 * path its conflict names (a folder rename moved it, and the conflict stayed behind). A conflict
 * whose original the user deleted names a path nothing holds, which is fine: no asset of it is left.
 */
export function strayConflicts(store: Pick<StoreQueries, 'conflicts' | 'synced'>): string[] {
  const failures: string[] = [];
  for (const conflict of store.conflicts()) {
    const placements = [...store.synced(conflict.rootId).values()].filter((entry) => entry.assetId === conflict.assetId).map((entry) => entry.relPath);
    if (placements.length > 0 && !placements.includes(conflict.relPath)) failures.push(`a conflict names ${conflict.relPath}, but its file is at ${placements.join(' and ')}`);
  }
  return failures;
}

/**
 * Synced paths the local snapshot still holds although their file turned up at a new path (the same
 * device and inode): a move whose old path no watcher event announced (an event dropped, or a hint
 * coalesced away). The snapshot says the file is at both paths; planned as it stands, the new path is
 * a new file and would go up as a second asset beside the moved one (stale-origins.test.ts). The caller
 * looks at these paths again before planning. A hard link is at both paths for real: looking again
 * finds it there, and nothing changes.
 */
import { identityOf, type LocalEntry, type SyncedEntry } from './sync-types.js';

export function staleOrigins(local: ReadonlyMap<string, LocalEntry>, synced: ReadonlyMap<string, SyncedEntry>): string[] {
  const appeared = new Set<string>();
  for (const entry of local.values()) if (!synced.has(entry.relPath)) appeared.add(identityOf(entry));
  if (appeared.size === 0) return [];
  const stale: string[] = [];
  for (const entry of synced.values()) {
    const recorded = local.get(entry.relPath);
    if (recorded !== undefined && appeared.has(identityOf(recorded))) stale.push(entry.relPath);
  }
  return stale;
}

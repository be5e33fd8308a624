/**
 * The remote half of the planner (DESIGN.md §3): what the service did to each synced placement since
 * both sides agreed — same, new bytes, moved/renamed (the asset left this path and arrived at another
 * of the same root), removed — and which placements are new. Identity is the asset id: a placement that
 * vanished is paired with one that arrived for the same asset, preferring the same name (a folder
 * move), then the same folder (a rename). Pure and deterministic.
 */
import type { RemoteEntry, RemoteView, SyncedEntry } from './sync-types.js';

export type RemoteState =
  | { kind: 'same'; remote: RemoteEntry }
  | { kind: 'changed'; remote: RemoteEntry }
  | { kind: 'moved'; remote: RemoteEntry }
  | { kind: 'removed' }
  /** Our own change to the asset has not been read back yet: decide nothing for the remote side. */
  | { kind: 'unknown' };

export interface RemoteDiff {
  /** By synced relPath. */
  states: Map<string, RemoteState>;
  /** Placements with no synced counterpart; by path. */
  appeared: RemoteEntry[];
}

const basename = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);
const dirname = (relPath: string): string => relPath.slice(0, Math.max(0, relPath.lastIndexOf('/')));
const byPath = (a: { relPath: string }, b: { relPath: string }): number => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);

function group<T extends { assetId: string; relPath: string }>(entries: Iterable<T>): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const entry of [...entries].sort(byPath)) groups.set(entry.assetId, [...(groups.get(entry.assetId) ?? []), entry]);
  return groups;
}

export function diffRemote(synced: ReadonlyMap<string, SyncedEntry>, view: RemoteView): RemoteDiff {
  const unknown = view.unknownAssets ?? new Set<string>();
  const states = new Map<string, RemoteState>();
  const appeared: RemoteEntry[] = [];
  const remoteByAsset = group(view.entries.values());
  const syncedByAsset = group(synced.values());

  for (const [assetId, placements] of syncedByAsset) {
    if (unknown.has(assetId)) {
      for (const entry of placements) states.set(entry.relPath, { kind: 'unknown' });
      continue;
    }
    const remote = remoteByAsset.get(assetId) ?? [];
    const remotePaths = new Set(remote.map((entry) => entry.relPath));
    const syncedPaths = new Set(placements.map((entry) => entry.relPath));
    const arrived = remote.filter((entry) => !syncedPaths.has(entry.relPath));
    for (const entry of placements) {
      const here = view.entries.get(entry.relPath);
      if (here !== undefined && remotePaths.has(entry.relPath)) {
        states.set(entry.relPath, { kind: here.md5 === entry.md5 ? 'same' : 'changed', remote: here });
        continue;
      }
      const pick =
        arrived.find((candidate) => basename(candidate.relPath) === basename(entry.relPath)) ??
        arrived.find((candidate) => dirname(candidate.relPath) === dirname(entry.relPath)) ??
        arrived[0];
      if (pick === undefined) {
        states.set(entry.relPath, { kind: 'removed' });
      } else {
        arrived.splice(arrived.indexOf(pick), 1);
        states.set(entry.relPath, { kind: 'moved', remote: pick });
      }
    }
    appeared.push(...arrived);
  }
  for (const [assetId, remote] of remoteByAsset) {
    if (!syncedByAsset.has(assetId) && !unknown.has(assetId)) appeared.push(...remote);
  }
  return { states, appeared: appeared.sort(byPath) };
}

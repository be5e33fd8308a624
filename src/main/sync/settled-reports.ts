/**
 * Which "not synced" reports a plan shows to be out of date: the path's failure was
 * retried or outlived, and now both sides agree on it — the local file is the synced one and the
 * service holds the same bytes — or nothing is left of it anywhere. A report clears when its path
 * syncs or is gone, however that came about (a download landed, the user undid an edit, the service's
 * asset was removed), so a stale one never keeps `--once` from converging.
 *
 * Pure: it never touches the state. Scanner reports are the scanner's (local-refresh.ts re-checks
 * them); a path still waiting out its retry, planned, held or settling is left alone.
 */
import type { LocalEntry, Plan, Operation, RemoteView, SyncedEntry } from './sync-types.js';

export interface ReportsInput {
  /** The not-synced reports that are not the scanner's. */
  reports: readonly string[];
  local: ReadonlyMap<string, LocalEntry>;
  synced: ReadonlyMap<string, SyncedEntry>;
  /** The service's side; absent when it could not be read this pass (then no report is judged). */
  remote?: RemoteView;
  /** Paths waiting out a retry, still settling or unreadable: not judged this pass. */
  waiting: ReadonlySet<string>;
  plan: Plan;
}

/** The reports whose paths are in agreement now: they can go. */
export function settledReports(input: ReportsInput): string[] {
  const touched = new Set([...input.plan.operations, ...input.plan.heldDeletes].flatMap(pathsOf));
  return input.reports.filter((relPath) => !input.waiting.has(relPath) && !touched.has(relPath) && agreed(relPath, input));
}

function agreed(relPath: string, { local, synced, remote }: ReportsInput): boolean {
  const mine = local.get(relPath);
  const both = synced.get(relPath);
  const theirs = remote?.entries.get(relPath);
  // Without the service's side (or with the asset's state unknown) a failure that was the service's
  // to fix, a download say, cannot be judged: the report stays.
  if (remote === undefined || (both !== undefined && remote.unknownAssets?.has(both.assetId) === true)) return false;
  if (mine === undefined) return both === undefined && theirs === undefined;
  return both !== undefined && mine.md5 === both.md5 && theirs?.md5 === both.md5 && theirs.assetId === both.assetId;
}

function pathsOf(operation: Operation): string[] {
  switch (operation.kind) {
    case 'MOVE':
      return [operation.from, operation.to];
    case 'LOCAL_MOVE':
      return [operation.from, operation.to, operation.syncedPath];
    case 'CONFLICT':
      return [operation.relPath, operation.copyPath];
    default:
      return [operation.relPath];
  }
}

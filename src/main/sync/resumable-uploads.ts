/**
 * Which interrupted uploads a pass resumes before it looks at the disk (upload-executor.ts `resume`).
 * The first pass resumes the whole journal; a later one only what it could not finish yet, once that
 * path's backoff is over. Left to the planner instead, such a file (its upload landed unheard, then
 * unreadable to tell) meets a colleague's newer version at its path as a conflict, and its journal
 * entry stays for good. A file that changed since its upload began is the planner's from then on (the
 * resume forgot the upload, keeping the asset for the file's next one): resumed again, it fails the same
 * way each time its backoff ends, and the backoff keeps the planner off the file for good. Pure.
 */
import { SyncError } from '../model/sync-error.js';

/** The paths whose "not synced" report waits out a retry at `now`. */
export function backingOff(reports: readonly { rel_path: string; retry_at: number | null }[], now: number): Set<string> {
  return new Set(reports.filter((row) => row.retry_at !== null && row.retry_at > now).map((row) => row.rel_path));
}

/** Whether the resume takes the journal entry at `relPath`: all when `left` is undefined (the first pass). */
export function resumes(left: ReadonlySet<string> | undefined, waiting: ReadonlySet<string>): (relPath: string) => boolean {
  return (relPath) => left === undefined || (left.has(relPath) && !waiting.has(relPath));
}

/** What is left to resume after this resume: the failures still undecided, and the entries that were waiting. */
export function leftToResume(outcomes: readonly { relPath: string; result: { ok: true } | { ok: false; error: unknown } }[], left: ReadonlySet<string> | undefined, waiting: ReadonlySet<string>): Set<string> {
  const undecided = outcomes.filter((outcome) => !outcome.result.ok && !(outcome.result.error instanceof SyncError && outcome.result.error.code === 'LOCAL_FILE_CHANGED'));
  return new Set([...undecided.map((outcome) => outcome.relPath), ...[...(left ?? [])].filter((relPath) => waiting.has(relPath))]);
}

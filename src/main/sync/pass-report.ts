/**
 * What one pass did (root-sync.ts), and how a failed file is reported: a "not synced" row with the
 * reason classify-failure.ts gives, retried after its backoff. Knows nothing of the plan.
 */
import type { IssuesRepo } from '../db/issues-repo.js';
import { classifyFailure } from './classify-failure.js';
import type { UploadOutcome } from './upload-executor.js';

/** What one pass did, for progress output and `--once`'s verdict. */
export interface PassReport {
  rootId: string;
  stopped?: string;
  scanned: boolean;
  uploaded: number;
  versions: number;
  moved: number;
  removed: number;
  failed: number;
  bytesSent: number;
  heldDeletes: number;
  /** Files still being written (not yet stable). */
  settling: number;
  /**
   * Operations tried this pass, the interrupted uploads it finished among them (0 means the root is at
   * rest unless files are settling).
   */
  operations: number;
  /** The service's side: files downloaded (and their bytes), moved or trashed on disk, conflicts found. */
  downloaded: number;
  bytesReceived: number;
  localMoved: number;
  trashed: number;
  conflicts: number;
  /** Why the service could not be read this pass (the last complete listing served instead). */
  remoteError?: string;
  /** No plan was made: the last one found nothing to do and nothing it reads changed since (plan-rest.ts). */
  rested?: boolean;
}

export function emptyReport(rootId: string): PassReport {
  return { rootId, scanned: false, uploaded: 0, versions: 0, moved: 0, removed: 0, failed: 0, bytesSent: 0, heldDeletes: 0, settling: 0, operations: 0, downloaded: 0, bytesReceived: 0, localMoved: 0, trashed: 0, conflicts: 0 };
}

export interface FailuresDeps {
  issues: Pick<IssuesRepo, 'notSyncedEntry' | 'failed'>;
  now(): number;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
}

/** Records a file's failure as "not synced" (retried after its backoff) and counts it, unless `count` is false. */
export function recordFailure(deps: FailuresDeps, rootId: string, relPath: string, error: unknown, report: PassReport, count = true): void {
  const attempts = deps.issues.notSyncedEntry(rootId, relPath)?.attempts ?? 0;
  const verdict = classifyFailure(error, attempts);
  deps.issues.failed(rootId, relPath, verdict.reason, verdict.detail, deps.now() + verdict.retryInMs);
  deps.log({ level: 'warn', message: `${verdict.reason}: ${verdict.detail}`, relPath });
  if (count) report.failed++;
}

/** Counts uploads done (and their bytes) under `counter`; records each failed one. */
export function recordUploads(deps: FailuresDeps, rootId: string, report: PassReport, outcomes: readonly UploadOutcome[], counter: 'uploaded' | 'versions'): void {
  for (const outcome of outcomes) {
    if (outcome.result.ok) {
      report[counter]++;
      report.bytesSent += outcome.result.bytesSent;
    } else {
      recordFailure(deps, rootId, outcome.relPath, outcome.result.error, report);
    }
  }
}

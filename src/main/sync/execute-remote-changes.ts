/**
 * Runs the operations that bring the service's changes to disk, in a safe order: bookkeeping first
 * (adopt and forget, in one transaction), then renames (local moves, conflict copies moved aside),
 * then downloads (the service's side of each conflict among them), then trashing. One failing file
 * never stops the others: each failure goes to `failed` (per-path backoff); a download cut short by
 * shutdown is not a failure and resumes next time from the bytes already on disk.
 */
import { isApiError } from '../api/index.js';
import type { DownloadExecutor } from './download-executor.js';
import type { LocalChangeExecutor } from './local-change-executor.js';
import type { Operation } from './sync-types.js';
import type { UploadRoot } from './upload-common.js';

export type RemoteChangeOp = Extract<Operation, { kind: 'DOWNLOAD' | 'LOCAL_MOVE' | 'LOCAL_DELETE' | 'CONFLICT' | 'ADOPT' | 'FORGET' }>;

export interface RemoteChangeCounters {
  downloaded: number;
  bytesReceived: number;
  localMoved: number;
  trashed: number;
  conflicts: number;
  failed: number;
}

export interface RemoteChangeDeps {
  local: LocalChangeExecutor;
  downloads: Pick<DownloadExecutor, 'download'>;
  /** Records why a path did not sync (and when to try again). */
  failed(relPath: string, error: unknown): void;
  /** A path synced: its old failure report goes. */
  cleared(relPath: string): void;
}

export function isRemoteChange(op: Operation): op is RemoteChangeOp {
  return op.kind === 'DOWNLOAD' || op.kind === 'LOCAL_MOVE' || op.kind === 'LOCAL_DELETE' || op.kind === 'CONFLICT' || op.kind === 'ADOPT' || op.kind === 'FORGET';
}

export async function executeRemoteChanges(root: UploadRoot, ops: readonly RemoteChangeOp[], deps: RemoteChangeDeps): Promise<RemoteChangeCounters> {
  const counters: RemoteChangeCounters = { downloaded: 0, bytesReceived: 0, localMoved: 0, trashed: 0, conflicts: 0, failed: 0 };
  const fail = (relPath: string, error: unknown): void => {
    counters.failed++;
    if (!isApiError(error, 'ABORTED')) deps.failed(relPath, error);
  };
  const attempt = async (relPath: string, task: () => Promise<void> | void): Promise<boolean> => {
    try {
      await task();
      deps.cleared(relPath);
      return true;
    } catch (error) {
      fail(relPath, error);
      return false;
    }
  };

  const rebinds = ops.flatMap((op) => (op.kind === 'ADOPT' || op.kind === 'FORGET' ? [op] : []));
  if (rebinds.length > 0) {
    try {
      deps.local.rebind(root, rebinds);
      for (const op of rebinds) deps.cleared(op.relPath);
    } catch (error) {
      for (const op of rebinds) fail(op.relPath, error);
    }
  }
  const downloads: Extract<RemoteChangeOp, { kind: 'DOWNLOAD' }>[] = [];
  for (const op of ops) {
    switch (op.kind) {
      case 'ADOPT':
      case 'FORGET':
        break;
      case 'LOCAL_MOVE':
        if (await attempt(op.to, () => deps.local.move(root, op))) counters.localMoved++;
        break;
      case 'CONFLICT':
        if (await attempt(op.relPath, () => deps.local.setAside(root, op).then(() => undefined))) {
          counters.conflicts++;
          downloads.push({ kind: 'DOWNLOAD', relPath: op.relPath, remote: op.remote });
        }
        break;
      case 'DOWNLOAD':
        downloads.push(op);
        break;
      case 'LOCAL_DELETE':
        break;
    }
  }
  for (const outcome of await deps.downloads.download(root, downloads)) {
    if (outcome.result.ok) {
      counters.downloaded++;
      counters.bytesReceived += outcome.result.bytes;
      deps.cleared(outcome.relPath);
    } else {
      fail(outcome.relPath, outcome.result.error);
    }
  }
  for (const op of ops) {
    if (op.kind === 'LOCAL_DELETE' && (await attempt(op.relPath, () => deps.local.remove(root, op)))) counters.trashed++;
  }
  return counters;
}

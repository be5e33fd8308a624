/**
 * How much a pass's plan will move, for progress displays: what the upload and download executors
 * will be handed, counted the way they transfer it. Pure; reads nothing but the operations.
 */
import type { PlannedTransfers } from '../../shared/sync/transfer-event.js';
import type { RemoteChangeOp } from './execute-remote-changes.js';
import type { LocalEntry } from './sync-types.js';

/**
 * `uploads` are the files the upload executor gets (new files and new versions); the downloads are the
 * DOWNLOAD ops and the service's side of each CONFLICT. A file version wanted at several paths is
 * downloaded once and copied (DownloadExecutor), so its bytes count once while every path is a file.
 * Bytes an interrupted transfer already moved are not subtracted: the estimate errs long, not short.
 * `settling` are the files still being written (their signatures so far): they wait for a later pass.
 */
export function plannedTransfers(uploads: readonly LocalEntry[], remoteChanges: readonly RemoteChangeOp[], settling: Iterable<{ size: number }> = []): PlannedTransfers {
  const versions = new Map<string, number>();
  let received = 0;
  for (const op of remoteChanges) {
    if (op.kind !== 'DOWNLOAD' && op.kind !== 'CONFLICT') continue;
    received++;
    versions.set(`${op.remote.fileId}\n${op.remote.md5}`, op.remote.size);
  }
  const waiting = [...settling];
  return {
    send: { files: uploads.length, bytes: uploads.reduce((sum, local) => sum + local.size, 0) },
    receive: { files: received, bytes: [...versions.values()].reduce((sum, size) => sum + size, 0) },
    waiting: { files: waiting.length, bytes: waiting.reduce((sum, file) => sum + file.size, 0) },
  };
}

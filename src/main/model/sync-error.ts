/**
 * Expected failures of the sync engine, with a stable `code` the CLI, the UI and the retry policy
 * switch on. API failures stay ApiErrors (src/main/api/); this is for what the engine itself decides.
 */
export type SyncErrorCode =
  | 'FOLDER_UNAVAILABLE'
  | 'LOCAL_FILE_CHANGED'
  | 'CHECKSUM_MISMATCH'
  | 'INVALID_NAME'
  | 'ROOT_STOPPED'
  | 'NOT_SIGNED_IN'
  | 'ROOT_IN_USE'
  /** A new synced folder would overlap another, on disk or in the service. */
  | 'FOLDERS_OVERLAP'
  | 'CONFLICT_NOT_FOUND'
  | 'UPLOAD_UNDECIDED';

export class SyncError extends Error {
  override readonly name = 'SyncError';
  constructor(
    readonly code: SyncErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

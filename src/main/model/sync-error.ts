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
  /** A synced folder's place in the service changes, and what to do with the old place's files was not said. */
  | 'REMAP_CHOICE_NEEDED'
  /** What is in the old place cannot move to the new place as one folder (the top level, into itself). */
  | 'REMAP_CANNOT_MOVE'
  /** The new place already holds files, so the old place's folder cannot move there. */
  | 'REMAP_TARGET_IN_USE'
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

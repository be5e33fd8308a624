/** Failures of the app controller itself, with a stable code the bridge passes through to the window. */
export type AppCoreErrorCode =
  | 'INVALID_REQUEST'
  | 'NOT_FOUND'
  | 'NOT_SIGNED_IN'
  | 'SETTINGS_UNREADABLE'
  | 'FOLDER_IN_USE'
  | 'COPY_FAILED'
  | 'NO_LOCAL_LIBRARY'
  | 'OPEN_FAILED'
  | 'CLOSED';

export class AppCoreError extends Error {
  override readonly name = 'AppCoreError';

  constructor(
    readonly code: AppCoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

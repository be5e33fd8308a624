/** Failures of the app controller itself, with a stable code the bridge passes through to the window. */
export type AppErrorCode =
  | 'INVALID_REQUEST'
  | 'NOT_FOUND'
  | 'NOT_SIGNED_IN'
  | 'SETTINGS_UNREADABLE'
  | 'FOLDER_IN_USE'
  | 'COPY_FAILED'
  | 'NO_LOCAL_LIBRARY'
  | 'OPEN_FAILED'
  | 'CLOSED';

export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: AppErrorCode,
    message: string,
  ) {
    super(message);
  }
}

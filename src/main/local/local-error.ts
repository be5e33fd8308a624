/**
 * Expected failures of the local side, with a stable `code` the engine switches on (STYLE.md: errors are
 * classes with a code). File-system errors from the I/O edge keep their errno code (`ENOENT`, …) and are
 * read with `errnoCode`; this class is for decisions the local side itself makes.
 */

export type LocalErrorCode =
  /** The root folder cannot be listed: the engine must stop the root, never read it as empty. */
  | 'ROOT_UNREADABLE'
  /** A relative path that is absolute, contains `..`, NUL, empty segments, or leaves the root. */
  | 'PATH_ESCAPES_ROOT'
  /** A directory on the way to the target is a symlink (or not a directory). */
  | 'SYMLINK_IN_PATH'
  /** A directory on the way is a file, cannot be read, or is spelled two ways on disk. */
  | 'PATH_BLOCKED'
  /** The path is inside the engine's own `.asset-sync/` directory. */
  | 'ENGINE_PATH'
  /** A root marker exists and belongs to another root. */
  | 'MARKER_EXISTS'
  /** The root marker exists but is not a marker this version understands. */
  | 'MARKER_INVALID'
  /** `.assetsyncignore` exists but cannot be read: scanning without it could upload what it excludes. */
  | 'IGNORE_FILE_UNREADABLE'
  /** A file cannot be opened or read now (a permission, a lock): tried again later. */
  | 'FILE_UNREADABLE'
  /** The scan was aborted through its signal. */
  | 'ABORTED';

export class LocalError extends Error {
  override readonly name = 'LocalError';
  constructor(
    readonly code: LocalErrorCode,
    message: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The errno code (`ENOENT`, `EACCES`, …) of a file-system error from either implementation, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}

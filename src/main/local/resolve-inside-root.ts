/**
 * Path confinement for everything that writes (DESIGN.md §4.7: nothing is ever written outside the
 * root, whatever names the service returns). `checkRelPath` refuses, without touching the disk,
 * anything that could leave the root or reach the engine's own `.asset-sync/`; `resolveInsideRoot`
 * also refuses a path through a symlinked or non-directory parent, and returns the absolute path with
 * existing directories spelled as on disk (so an NFD folder is reused, not duplicated in NFC).
 * A writer should still create in `.asset-sync/` and rename into place right after resolving.
 */
import { isAbsolute, relative, resolve, sep, win32 } from 'node:path';
import type { FileStat, FileSystem } from './file-system.js';
import { ENGINE_DIR_NAME } from './default-ignores.js';
import { LocalError } from './local-error.js';
import { PathLocator } from './locate-path.js';

/** The NFC segments of a relPath that cannot leave the root; throws PATH_ESCAPES_ROOT or ENGINE_PATH. */
export function checkRelPath(relPath: string, platform: NodeJS.Platform = process.platform): string[] {
  const refuse = (why: string): never => {
    throw new LocalError('PATH_ESCAPES_ROOT', `refusing path ${JSON.stringify(relPath)}: ${why}`, relPath);
  };
  if (relPath.length === 0) refuse('it is empty');
  if (relPath.includes('\0')) refuse('it contains NUL');
  if (relPath.startsWith('/') || relPath.startsWith('\\') || isAbsolute(relPath) || win32.isAbsolute(relPath) || /^[a-zA-Z]:/.test(relPath)) refuse('it is absolute');
  if (platform === 'win32' && /[\\:]/.test(relPath)) refuse('it contains "\\" or ":"');
  const segments = relPath.normalize('NFC').split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') refuse('it has an empty, "." or ".." segment');
  }
  if (segments[0]?.toLowerCase() === ENGINE_DIR_NAME) {
    throw new LocalError('ENGINE_PATH', `refusing path ${JSON.stringify(relPath)}: ${ENGINE_DIR_NAME} belongs to the engine`, relPath);
  }
  return segments;
}

/**
 * The absolute path of `relPath` inside `root`, checked against the disk: no directory on the way may be
 * a symlink or a file, and an existing final entry may not be a symlink. It may not exist yet.
 * `locator` (a PathLocator of the same root) lets a batch of lookups share what it learned of the
 * directories on the way; it must not outlive the batch.
 */
export async function resolveInsideRoot(fs: FileSystem, root: string, relPath: string, locator?: PathLocator): Promise<string> {
  return (await locateInsideRoot(fs, root, relPath, locator)).absPath;
}

/** resolveInsideRoot, also answering the lstat of what is there now (undefined: nothing). */
export async function locateInsideRoot(fs: FileSystem, root: string, relPath: string, locator?: PathLocator): Promise<{ absPath: string; existing: FileStat | undefined }> {
  const segments = checkRelPath(relPath);
  const rootPath = resolve(root);
  const located = await (locator ?? new PathLocator(fs, rootPath)).locate(segments.join('/'));
  switch (located.kind) {
    case 'found':
      if (located.stat.kind === 'symlink') throw new LocalError('SYMLINK_IN_PATH', `${relPath} is a symbolic link`, relPath);
      return { absPath: confined(rootPath, located.absPath, relPath), existing: located.stat };
    case 'missing':
      return { absPath: confined(rootPath, located.absPath, relPath), existing: undefined };
    case 'blocked':
      if (located.what === 'symlink') throw new LocalError('SYMLINK_IN_PATH', `${located.at} is a symbolic link`, relPath);
      throw new LocalError('PATH_BLOCKED', `${located.at} is not a folder`, relPath);
    case 'unreadable':
      throw new LocalError('PATH_BLOCKED', `cannot read ${located.at}: ${located.code}`, relPath);
    case 'clash':
      throw new LocalError('PATH_BLOCKED', `${located.at} is spelled two ways on disk`, relPath);
  }
}

/** Belt and braces: the joined path really is below the root. */
function confined(rootPath: string, absPath: string, relPath: string): string {
  const rel = relative(rootPath, absPath);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new LocalError('PATH_ESCAPES_ROOT', `refusing path ${JSON.stringify(relPath)}: it leaves the root`, relPath);
  }
  return absPath;
}

/**
 * The on-disk path of a synced file. relPaths are NFC while names on disk may be NFD (files that came
 * from a Mac), and no directory on the way may be a symlink, so this asks the local side's PathLocator
 * instead of joining strings.
 */
import { PathLocator } from '../local/locate-path.js';
import type { FileStat, FileSystem } from '../local/index.js';

/** `locator` may be shared by a batch of lookups made together (it caches the directories it checked). */
export async function locateFile(fs: FileSystem, rootPath: string, relPath: string, locator = new PathLocator(fs, rootPath)): Promise<{ absPath: string; stat: FileStat } | undefined> {
  const located = await locator.locate(relPath);
  return located.kind === 'found' && located.stat.kind === 'file' ? { absPath: located.absPath, stat: located.stat } : undefined;
}

/**
 * Where the file would be, its directories checked but the file itself not looked at: for a caller
 * that opens it without following a symlink and checks what it opened (the part PUT's `expected`).
 * undefined when the path cannot hold the file (a symlinked directory on the way, a name clash, no
 * such non-ASCII name in the listing).
 */
export async function fileOnDiskPath(fs: FileSystem, rootPath: string, relPath: string, locator = new PathLocator(fs, rootPath)): Promise<string | undefined> {
  const named = await locator.onDiskPath(relPath);
  return named.kind === 'named' ? named.absPath : undefined;
}

/**
 * The on-disk path of a synced file. relPaths are NFC while names on disk may be NFD (files that came
 * from a Mac), and no directory on the way may be a symlink, so this asks the local side's PathLocator
 * instead of joining strings.
 */
import { PathLocator } from '../local/locate-path.js';
import type { FileStat, FileSystem } from '../local/index.js';

export async function locateFile(fs: FileSystem, rootPath: string, relPath: string): Promise<{ absPath: string; stat: FileStat } | undefined> {
  const located = await new PathLocator(fs, rootPath).locate(relPath);
  return located.kind === 'found' && located.stat.kind === 'file' ? { absPath: located.absPath, stat: located.stat } : undefined;
}

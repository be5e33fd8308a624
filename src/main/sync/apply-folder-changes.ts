/**
 * Folder changes seen on the service, made on disk (DESIGN.md §3): a new folder is created, a renamed or
 * moved one is renamed here in one step (its files follow without being downloaded again, and every
 * state row below it follows too), a removed one is removed when empty. When the local side does not
 * match what was expected (the old folder is not there, the new name is taken) nothing is forced: the
 * per-file planner then moves what needs moving file by file.
 * Must never: remove a folder that still holds anything; write outside the root.
 */
import { dirname, resolve } from 'node:path';
import type { FolderChange } from '../remote/remote-tree.js';
import { checkRelPath, errnoCode, PathLocator, resolveInsideRoot, type FileSystem, type LocalDisk } from '../local/index.js';
import type { UploadRoot } from './upload-executor.js';

export interface FolderChangeDeps {
  fs: FileSystem;
  disk: LocalDisk;
  /** The folder `from` was renamed `to` on disk: every state row below it now names `to` (snapshots, conflicts, folder cache). */
  renameRows(rootId: string, from: string, to: string): void;
  /** The folder cache learns (or forgets, with null) which option a directory is. */
  remember(rootId: string, relDir: string, optionId: string): void;
  forget(rootId: string, relDir: string): void;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
}

const isInside = (dir: string, path: string): boolean => path === dir || path.startsWith(`${dir}/`);

export async function applyFolderChanges(root: UploadRoot, changes: readonly FolderChange[], deps: FolderChangeDeps): Promise<string[]> {
  const touched: string[] = [];
  /** Moves done so far: a later change's old path is read through them. */
  const done: { from: string; to: string }[] = [];
  const current = (path: string): string => done.reduce((at, move) => (isInside(move.from, at) ? `${move.to}${at.slice(move.from.length)}` : at), path);
  const removed = new Set(changes.flatMap((change) => (change.kind === 'REMOVED' ? [change.relDir] : [])));
  /** Removed folders whose new option is their respelling: the directory lives on under the new name. */
  const respelled = new Set<string>();
  for (const change of changes) {
    try {
      switch (change.kind) {
        case 'CREATED': {
          const target = await resolveInsideRoot(deps.fs, root.path, change.relDir);
          // `A` removed and `a` created (a folder renamed in case only on a disk that keeps case, whose
          // emptied option went): on a disk that ignores case `a` finds `A`, which is respelled in place.
          const old = await otherSpelling(deps.fs, dirname(target), change.relDir, removed);
          if (old !== undefined) {
            await deps.fs.rename(await resolveInsideRoot(deps.fs, root.path, old), target);
            deps.renameRows(root.id, old, change.relDir);
            done.push({ from: old, to: change.relDir });
            respelled.add(old);
            touched.push(old, change.relDir);
            deps.log({ level: 'info', message: `folder respelled as on the service: ${old} → ${change.relDir}`, relPath: change.relDir });
          } else {
            await deps.fs.mkdirp(target);
          }
          deps.remember(root.id, change.relDir, change.optionId);
          break;
        }
        case 'MOVED': {
          const from = current(change.from);
          deps.forget(root.id, change.from);
          if (from === change.to) break;
          const source = await resolveInsideRoot(deps.fs, root.path, from);
          const target = await resolveInsideRoot(deps.fs, root.path, change.to);
          const there = await kindOf(deps.fs, source);
          // A case-only rename (`A` → `a`) on a disk that ignores case finds the folder itself at the
          // new name: the rename respells it in place, as the file system's own case rename does.
          const respelled = there === 'directory' && (await sameEntry(deps.fs, source, target));
          if (there !== 'directory' || ((await kindOf(deps.fs, target)) !== undefined && !respelled)) {
            await deps.fs.mkdirp(target);
            break;
          }
          await deps.fs.mkdirp(dirname(target));
          await deps.fs.rename(source, target);
          deps.renameRows(root.id, from, change.to);
          deps.remember(root.id, change.to, change.optionId);
          done.push({ from, to: change.to });
          touched.push(from, change.to);
          deps.log({ level: 'info', message: `folder moved on the service: ${from} → ${change.to}`, relPath: change.to });
          break;
        }
        case 'REMOVED': {
          deps.forget(root.id, change.relDir);
          if (respelled.has(change.relDir)) break;
          const path = await resolveInsideRoot(deps.fs, root.path, current(change.relDir));
          if ((await kindOf(deps.fs, path)) === 'directory') await deps.disk.removeEmptyDir(path);
          break;
        }
      }
    } catch (error) {
      deps.log({ level: 'warn', message: `folder change not applied (${change.kind}): ${error instanceof Error ? error.message : String(error)}`, relPath: change.kind === 'MOVED' ? change.to : change.relDir });
    }
  }
  return touched;
}

/**
 * The removed folder that `relDir` finds on disk under another spelling of its name (a disk that
 * ignores case), if any: the listing names the directory as it is spelled there.
 */
async function otherSpelling(fs: FileSystem, parentAbs: string, relDir: string, removed: ReadonlySet<string>): Promise<string | undefined> {
  const slash = relDir.lastIndexOf('/');
  const name = relDir.slice(slash + 1);
  let entries;
  try {
    entries = await fs.readdir(parentAbs);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (entries.some((entry) => entry.name.normalize('NFC') === name)) return undefined;
  for (const entry of entries) {
    const spelled = `${relDir.slice(0, slash + 1)}${entry.name.normalize('NFC')}`;
    if (entry.kind === 'directory' && entry.name.toLowerCase() === name.toLowerCase() && removed.has(spelled) && (await sameEntry(fs, `${parentAbs}/${entry.name}`, `${parentAbs}/${name}`))) return spelled;
  }
  return undefined;
}

async function sameEntry(fs: FileSystem, a: string, b: string): Promise<boolean> {
  try {
    const [first, second] = await Promise.all([fs.lstat(a), fs.lstat(b)]);
    return first.ino === second.ino && first.dev === second.dev;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}

async function kindOf(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return (await fs.lstat(path)).kind;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * How the directory `relDir` is spelled on a disk that ignores case (`a` for `A`), if one is there:
 * twin options (`A` and `a`) share it under that name (remote-tree.ts).
 */
export async function spelledOnDisk(fs: FileSystem, rootPath: string, relDir: string): Promise<string | undefined> {
  const slash = relDir.lastIndexOf('/');
  const name = relDir.slice(slash + 1).normalize('NFC').toLowerCase();
  const parent = slash < 0 ? rootPath : await directoryAt(fs, rootPath, relDir.slice(0, slash));
  if (parent === undefined) return undefined;
  let entries;
  try {
    entries = await fs.readdir(parent);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
  return entries.find((entry) => entry.kind === 'directory' && entry.name.normalize('NFC').toLowerCase() === name)?.name.normalize('NFC');
}

/**
 * The directory `relDir` on disk, checked as resolveInsideRoot checks it, or undefined where there is
 * none: gone, or a file or symlink in its place or on its way. Such a place holds no spelling of a
 * folder below it, and is not an error: refusing it (`B is not a folder`) would fail every read of the
 * service's changes below a folder the user replaced with a file, and the root would never see the
 * service again. A directory that cannot be read, or is spelled two ways, is still refused.
 */
async function directoryAt(fs: FileSystem, rootPath: string, relDir: string): Promise<string | undefined> {
  const locator = new PathLocator(fs, resolve(rootPath));
  const located = await locator.locate(checkRelPath(relDir).join('/'));
  if (located.kind === 'missing' || located.kind === 'blocked' || (located.kind === 'found' && located.stat.kind !== 'directory')) return undefined;
  return resolveInsideRoot(fs, rootPath, relDir, locator);
}

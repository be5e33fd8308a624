/**
 * Local deletions go to the OS trash (DESIGN.md §3, §4.2 "no data loss"), behind one function type so
 * the desktop app can pass Electron's `shell.trashItem` and tests a trash of their own. This is the
 * freedesktop.org Trash for Linux and other XDG desktops: `$XDG_DATA_HOME/Trash` (default
 * `~/.local/share/Trash`) with the file under `files/` and a `info/<name>.trashinfo` saying where it came
 * from and when, so the desktop's "Restore" puts it back (https://specifications.freedesktop.org/trash-spec/).
 *
 * The name is reserved by creating the .trashinfo exclusively before the file moves, so two trashings
 * never overwrite each other. A file on another file system than the trash is copied and then removed
 * (the spec's per-volume `$topdir/.Trash-$uid` is not used: a synced root is rarely a removable volume,
 * and the home trash is where people look). Must never delete a file it could not put in the trash.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { errnoCode } from './local-error.js';

/** Moves the file at this absolute path to a trash the user can restore it from. */
export type Trash = (absPath: string) => Promise<void>;

export interface FreedesktopTrashOptions {
  /** `$XDG_DATA_HOME` (default: the environment's, else `~/.local/share`). */
  dataHome?: string;
  env?: Record<string, string | undefined>;
  /** Epoch ms, for DeletionDate. */
  now?: () => number;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local time without zone, as the spec wants: `2026-03-01T09:24:01`. */
export function deletionDate(ms: number): string {
  const at = new Date(ms);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** The `Path=` value: the absolute path, percent-encoded except `/` (RFC 2396 as the spec says). */
export function trashInfoPath(absPath: string): string {
  return absPath.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

export function trashDirOf(options: Pick<FreedesktopTrashOptions, 'dataHome' | 'env'> = {}): string {
  const env = options.env ?? process.env;
  const dataHome = options.dataHome ?? (env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share'));
  return join(dataHome, 'Trash');
}

export function createFreedesktopTrash(options: FreedesktopTrashOptions = {}): Trash {
  const trashDir = trashDirOf(options);
  const now = options.now ?? Date.now;
  return async (absPath) => {
    const files = join(trashDir, 'files');
    const info = join(trashDir, 'info');
    await mkdir(files, { recursive: true, mode: 0o700 });
    await mkdir(info, { recursive: true, mode: 0o700 });
    const original = basename(absPath);
    const dot = original.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [original.slice(0, dot), original.slice(dot)] : [original, ''];
    const body = `[Trash Info]\nPath=${trashInfoPath(absPath)}\nDeletionDate=${deletionDate(now())}\n`;
    for (let n = 1; ; n++) {
      const name = n === 1 ? original : `${stem}.${n}${ext}`;
      const infoPath = join(info, `${name}.trashinfo`);
      let handle;
      try {
        handle = await open(infoPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') continue;
        throw error;
      }
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await moveInto(absPath, join(files, name));
      } catch (error) {
        await unlink(infoPath).catch(() => undefined);
        throw error;
      }
      return;
    }
  };
}

async function moveInto(from: string, to: string): Promise<void> {
  // The name was reserved through its .trashinfo; a leftover file of that name is a stale one.
  if (await lstat(to).then(() => true, () => false)) throw Object.assign(new Error(`${to} exists`), { code: 'EEXIST' });
  try {
    await rename(from, to);
  } catch (error) {
    if (errnoCode(error) !== 'EXDEV') throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
    await unlink(from);
  }
}

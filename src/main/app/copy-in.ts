/**
 * Drag and drop into a synced folder: files and folders are copied, never moved (the source is the
 * user's and stays where it was); a name that already exists gets ` (2)`, ` (3)`, … before its
 * extension, so nothing in the folder is ever overwritten, and the caller learns every name so given. Browser drops arrive as byte streams; they
 * are written to a temp name and renamed into place, so the watcher never uploads half a file.
 */
import { createWriteStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, rename, rm, utimes } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { resolveInsideRoot } from '../local/index.js';
import { NodeFileSystem } from '../local/index.js';
import type { RenamedCopy } from '../../shared/bridge/copy-result.js';
import { AppError } from './app-error.js';

/** `a.png`, then `a (2).png`, `a (3).png`, …: the first name `exists` says is free. */
export async function freeName(dir: string, name: string, exists: (path: string) => Promise<boolean>): Promise<string> {
  if (!(await exists(join(dir, name)))) return name;
  const ext = name.startsWith('.') && extname(name) === name ? '' : extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!(await exists(join(dir, candidate)))) return candidate;
  }
}

export const pathExists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The absolute target directory `relDir` inside `root`, refusing anything that would leave it. */
export async function targetDir(root: string, relDir: string): Promise<string> {
  const clean = relDir.replace(/^\/+|\/+$/g, '');
  if (clean === '') return root;
  try {
    return await resolveInsideRoot(new NodeFileSystem(), root, clean);
  } catch (error) {
    throw new AppError('INVALID_REQUEST', `"${relDir}" is not a folder inside the synced folder: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface CopyProgress {
  /** A file is about to be copied to `target` (absolute) with this many bytes. */
  started(target: string, bytes: number): number;
  bytes(token: number, count: number): void;
  finished(token: number, error?: unknown): void;
}

/** A path below `dir`, with forward slashes whatever the platform. */
const below = (dir: string, path: string): string => relative(dir, path).split('\\').join('/');

/**
 * Copies a file or a folder (recursively) from this machine into `dir`; answers the files copied and
 * every item that got another name than its own (paths relative to `dir`).
 */
export async function copyPathInto(source: string, dir: string, progress: CopyProgress): Promise<{ copied: number; renamed: RenamedCopy[] }> {
  const renamed: RenamedCopy[] = [];
  const copied = await copyPathBelow(source, dir, progress, (asked, named) => {
    if (asked !== named) renamed.push({ asked: below(dir, asked), named: below(dir, named) });
  });
  return { copied, renamed };
}

async function copyPathBelow(source: string, dir: string, progress: CopyProgress, landed: (asked: string, named: string) => void): Promise<number> {
  const stat = await lstat(source).catch((error: unknown) => {
    throw new AppError('COPY_FAILED', `Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`);
  });
  await mkdir(dir, { recursive: true });
  const asked = join(dir, basename(source));
  const name = await freeName(dir, basename(source), pathExists);
  const target = join(dir, name);
  if (stat.isDirectory()) {
    await mkdir(target);
    landed(asked, target);
    let copied = 0;
    for (const entry of await readdir(source)) copied += await copyPathBelow(join(source, entry), target, progress, landed);
    return copied;
  }
  if (!stat.isFile()) return 0;
  const token = progress.started(target, stat.size);
  const temporary = join(dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await copyFile(source, temporary);
    await utimes(temporary, stat.atimeMs / 1000, stat.mtimeMs / 1000);
    landed(asked, await placeWithoutOverwrite(temporary, dir, name, target));
    progress.bytes(token, stat.size);
    progress.finished(token);
    return 1;
  } catch (error) {
    await rm(temporary, { force: true });
    progress.finished(token, error);
    throw new AppError('COPY_FAILED', `Could not copy ${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Moves the finished temp file to `chosen`, or to the next free ` (n)` name when something took that
 * name while we copied: a user's file that appeared meanwhile is never overwritten. A hard link fails
 * with EEXIST instead of replacing, so the check and the move are one step; where the file system
 * has no hard links (FAT and exFAT drives) it falls back to a look just before the rename.
 */
export async function placeWithoutOverwrite(temporary: string, dir: string, name: string, chosen: string): Promise<string> {
  let target = chosen;
  for (;;) {
    try {
      await link(temporary, target);
      await rm(temporary, { force: true });
      return target;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        target = join(dir, await freeName(dir, name, pathExists));
        continue;
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      const free = (await pathExists(target)) ? join(dir, await freeName(dir, name, pathExists)) : target;
      await rename(temporary, free);
      return free;
    }
  }
}

/**
 * Writes one dropped file from a stream to `relPath` (may hold folders: `Shots/a.png`) below `dir`.
 * Folders of the drop are created as needed; only the file's own name gets ` (2)`.
 */
export async function copyStreamInto(
  body: Readable,
  dir: string,
  relPath: string,
  meta: { size: number | null; lastModified: number | null },
  progress: CopyProgress,
): Promise<string> {
  const parts = relPath.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.some((part) => part === '..' || part.includes('\\') || part.includes('\0'))) {
    throw new AppError('INVALID_REQUEST', `"${relPath}" is not a file name a drop can carry.`);
  }
  const fileName = parts.pop() ?? '';
  const folder = join(dir, ...parts);
  if (relative(dir, folder).startsWith('..')) throw new AppError('INVALID_REQUEST', `"${relPath}" leaves the folder.`);
  await mkdir(folder, { recursive: true });
  const name = await freeName(folder, fileName, pathExists);
  const target = join(folder, name);
  const token = progress.started(target, meta.size ?? 0);
  const temporary = join(folder, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    body.on('data', (chunk: Buffer) => progress.bytes(token, chunk.length));
    await pipeline(body, createWriteStream(temporary, { flags: 'wx' }));
    if (meta.lastModified !== null && Number.isFinite(meta.lastModified)) {
      const when = new Date(meta.lastModified);
      await utimes(temporary, when, when);
    }
    const final = await placeWithoutOverwrite(temporary, folder, fileName, target);
    progress.finished(token);
    return below(dir, final);
  } catch (error) {
    await rm(temporary, { force: true });
    progress.finished(token, error);
    throw new AppError('COPY_FAILED', `Could not write ${relPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}


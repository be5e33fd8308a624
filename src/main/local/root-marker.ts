/**
 * The marker `.asset-sync/root.json` that says "this folder is sync root X". The engine checks it before
 * every pass and stops the root (instead of propagating deletions) when the root or the marker is gone,
 * e.g. an unmounted drive leaving an empty mount point, or when it belongs to another root (a copied
 * folder). Written once when a root is set up; never rewritten to make a check pass.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from './clock.js';
import { ENGINE_DIR_NAME } from './default-ignores.js';
import type { FileSystem } from './file-system.js';
import { LocalError, errnoCode } from './local-error.js';
import { writeFileAtomic } from './write-file-atomic.js';

export const ROOT_MARKER_FILE = 'root.json';

const markerSchema = z.object({
  version: z.literal(1),
  rootId: z.string().min(1),
  server: z.string(),
  remotePath: z.string(),
  createdAt: z.string(),
});

export type RootMarker = z.infer<typeof markerSchema>;

export type RootCheck =
  | { status: 'OK'; marker: RootMarker }
  /** The root folder is not there, not a folder, or cannot be read. */
  | { status: 'MISSING_ROOT'; detail: string }
  /** The folder is there but has no readable marker (an empty mount point looks like this). */
  | { status: 'MISSING_MARKER'; detail: string }
  /** A marker of another root, or one that cannot be parsed. */
  | { status: 'MARKER_MISMATCH'; detail: string; marker?: RootMarker };

export function engineDir(root: string): string {
  return join(root, ENGINE_DIR_NAME);
}

export function markerPath(root: string): string {
  return join(root, ENGINE_DIR_NAME, ROOT_MARKER_FILE);
}

/** The marker of `root`; undefined when there is none; MARKER_INVALID when it is not one. */
export async function readRootMarker(fs: FileSystem, root: string): Promise<RootMarker | undefined> {
  const path = markerPath(root);
  let bytes: Uint8Array;
  try {
    const stat = await fs.lstat(path);
    if (stat.kind !== 'file') throw new LocalError('MARKER_INVALID', 'the root marker is not a regular file', path);
    bytes = await fs.readFile(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new LocalError('MARKER_INVALID', 'the root marker is not JSON', path, { cause: error });
  }
  const parsed = markerSchema.safeParse(json);
  if (!parsed.success) throw new LocalError('MARKER_INVALID', `the root marker is not valid: ${parsed.error.message}`, path);
  return parsed.data;
}

/**
 * Marks `root` as sync root `rootId`. Idempotent for the same root id; MARKER_EXISTS when the folder
 * is already another root's. The root folder must exist (this never creates a root).
 */
export async function writeRootMarker(fs: FileSystem, root: string, fields: Omit<RootMarker, 'version' | 'createdAt'>, clock: Pick<Clock, 'now'>): Promise<RootMarker> {
  const stat = await fs.stat(root);
  if (stat.kind !== 'directory') throw new LocalError('ROOT_UNREADABLE', 'the root is not a directory', root);
  const existing = await readRootMarker(fs, root);
  if (existing !== undefined) {
    if (existing.rootId === fields.rootId) return existing;
    throw new LocalError('MARKER_EXISTS', `the folder is already sync root ${existing.rootId}`, markerPath(root));
  }
  const marker: RootMarker = { version: 1, ...fields, createdAt: new Date(clock.now()).toISOString() };
  await fs.mkdirp(engineDir(root));
  await writeFileAtomic(fs, markerPath(root), new TextEncoder().encode(`${JSON.stringify(marker, null, 2)}\n`));
  return marker;
}

/** Whether `root` is still the sync root `rootId`; anything but OK means: stop the root. */
export async function checkRoot(fs: FileSystem, root: string, rootId: string): Promise<RootCheck> {
  try {
    const stat = await fs.stat(root);
    if (stat.kind !== 'directory') return { status: 'MISSING_ROOT', detail: `${root} is not a folder` };
  } catch (error) {
    const code = errnoCode(error) ?? String(error);
    return { status: 'MISSING_ROOT', detail: code === 'ENOENT' ? `${root} does not exist` : `cannot read ${root}: ${code}` };
  }
  let marker: RootMarker | undefined;
  try {
    marker = await readRootMarker(fs, root);
  } catch (error) {
    if (error instanceof LocalError) return { status: 'MARKER_MISMATCH', detail: error.message };
    return { status: 'MISSING_MARKER', detail: `cannot read the root marker: ${errnoCode(error) ?? String(error)}` };
  }
  if (marker === undefined) return { status: 'MISSING_MARKER', detail: `${markerPath(root)} does not exist` };
  if (marker.rootId !== rootId) return { status: 'MARKER_MISMATCH', detail: `the folder is sync root ${marker.rootId}, expected ${rootId}`, marker };
  return { status: 'OK', marker };
}

/**
 * One file from a download job into a folder, resumable and verified: the machinery shared by
 * `asset-sync download` (src/main/cli/download-command.ts) and the app's quick download
 * (src/main/app/quick-downloads.ts). The bytes go to a hidden `.part` file named for the content
 * (a digest of name and checksum, src/main/local/part-file-name.ts: never the service's strings), so a
 * second try after an interruption resumes with `Range`; the file takes its
 * name only once its size and MD5 match what the service announced, and it never replaces a different
 * file of the same name (it gets `name (2).ext`). It must never leave a half-written file under the
 * final name.
 */
import { createHash } from 'node:crypto';
import { createReadStream, linkSync, rmSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Criterion, AssetApi } from '../api/index.js';
import { SyncError } from '../model/sync-error.js';
import { partFileName } from '../local/index.js';
import { MAX_NAME_BYTES } from '../../shared/api/remote-path.js';

/** What to fetch: a URL with the name, size and MD5 it must have. */
export interface WantedFile {
  url: string;
  filename: string;
  size: number;
  checksum: string;
}

export interface FetchedFile {
  path: string;
  /** The same bytes were already there under this name: nothing was downloaded. */
  alreadyThere: boolean;
  /** Bytes kept from an earlier try (0 when it started from scratch). */
  resumedFrom: number;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Bytes as they arrive (bytes kept from an earlier try are reported first, at once). */
  onProgress?: (bytes: number) => void;
}

/** `*TEXT*` for FIELD_MATCHES, with the wildcard syntax's own characters taken literally. */
function containing(text: string): string {
  return `*${text.replace(/[\\*]/g, (char) => `\\${char}`)}*`;
}

/** Assets whose file name or keywords contain `text`: staged, pending or live (not the bin). */
export function searchCriterion(text: string): Criterion {
  const matches = (fieldName: string): Criterion => ({ type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName }, value: containing(text) });
  return {
    type: 'AND',
    criteria: [
      { type: 'OR', criteria: [matches('FILENAME'), matches('KEYWORDS')] },
      // Not only LIVE (the default): a designer wants the file just uploaded too, but not the bin.
      { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] },
    ],
  };
}

export async function md5OfFile(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A file name the service gave, made safe to use as one name in a folder. */
export function safeName(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_').trim();
  if (cleaned === '') return 'download';
  const extension = extname(cleaned);
  return fitName(cleaned.slice(0, cleaned.length - extension.length), extension);
}

/** The hidden name of the partial download of `filename` at `checksum` in the folder it goes to. */
export function partPathName(filename: string, checksum: string): string {
  return `.${partFileName(filename, checksum)}`;
}

/** `stem` cut (whole characters) so that `stem + tail` fits in one name of MAX_NAME_BYTES. */
function fitName(stem: string, tail: string): string {
  const room = MAX_NAME_BYTES - Buffer.byteLength(tail);
  let cut = stem;
  while (cut.length > 0 && Buffer.byteLength(cut) > room) cut = Array.from(cut).slice(0, -1).join('');
  return `${cut}${tail}`;
}

/** The name the file gets: its own, unless a different file has it already. `present`: the same file is there. */
async function placeFor(dir: string, wanted: WantedFile): Promise<{ path: string; present: boolean }> {
  const extension = extname(wanted.filename);
  const stem = wanted.filename.slice(0, wanted.filename.length - extension.length);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? wanted.filename : fitName(stem, ` (${n})${extension}`));
    const existing = statSync(path, { throwIfNoEntry: false });
    if (existing === undefined) return { path, present: false };
    if (existing.isFile() && existing.size === wanted.size && (await md5OfFile(path)) === wanted.checksum) return { path, present: true };
  }
}

/**
 * Gives the verified part its name with a hard link, which fails rather than replace a file that took
 * the name meanwhile (rename would replace it); then the next free name is tried.
 */
async function landAt(dir: string, wanted: WantedFile, part: string, first: string): Promise<string> {
  let path = first;
  for (;;) {
    try {
      linkSync(part, path);
      rmSync(part, { force: true });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const next = await placeFor(dir, wanted);
      if (next.present) {
        rmSync(part, { force: true });
        return next.path;
      }
      path = next.path;
    }
  }
}

/** Downloads one file of a download job into `dir` (which must exist); rejects CHECKSUM_MISMATCH on bad bytes. */
export async function fetchVerifiedFile(api: Pick<AssetApi, 'downloadToFile'>, dir: string, wanted: WantedFile, options: FetchOptions = {}): Promise<FetchedFile> {
  const named = { ...wanted, filename: safeName(wanted.filename) };
  const place = await placeFor(dir, named);
  if (place.present) {
    options.onProgress?.(named.size);
    return { path: place.path, alreadyThere: true, resumedFrom: 0 };
  }
  // Named for the content, so a rerun resumes the same bytes even from a new job's URL.
  const part = join(dir, partPathName(named.filename, named.checksum));
  const have = statSync(part, { throwIfNoEntry: false })?.size ?? 0;
  const resumeFrom = have <= named.size ? have : 0;
  if (resumeFrom > 0) options.onProgress?.(resumeFrom);
  const result = await api.downloadToFile(named.url, part, {
    resumeFrom,
    ifRange: `"${named.checksum}"`,
    md5: true,
    fsync: true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onProgress: (bytes) => options.onProgress?.(bytes),
  });
  const md5 = result.md5 ?? (await md5OfFile(part));
  if (result.size !== named.size || md5 !== named.checksum) {
    rmSync(part, { force: true });
    throw new SyncError('CHECKSUM_MISMATCH', `${named.filename}: got ${result.size} bytes with MD5 ${md5}, expected ${named.size} bytes with MD5 ${named.checksum}`);
  }
  const path = await landAt(dir, named, part, place.path);
  return { path, alreadyThere: false, resumedFrom: resumeFrom > 0 && result.resumed ? resumeFrom : 0 };
}

/**
 * Remote paths (`/Brand/Logos/logo.png`): the folder chain in the Folders field plus the file name.
 * Both sides use these rules so a name that one accepts the other can represent: no empty, `.` or `..`
 * segments, no control characters, at most 255 UTF-8 bytes a segment. Names are NFC-normalised.
 */

export const MAX_NAME_BYTES = 255;
export const MAX_PATH_SEGMENTS = 64;

export interface RemotePath {
  /** Folder values from the top level down; empty for the top level. */
  folders: string[];
  filename: string;
}

/** Why a single name (a folder value or a file name) is not acceptable, or undefined when it is. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name === '.' || name === '..') return `"${name}" is not a name`;
  if (name.includes('/')) return 'contains "/"';
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (name.trim() !== name) return 'starts or ends with white space';
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return `is longer than ${MAX_NAME_BYTES} bytes`;
  return undefined;
}

export type ParsedPath = { ok: true; path: RemotePath } | { ok: false; reason: string };

/** Parses `/Folder/Sub/name.ext`; `/name.ext` is a file at the top level. */
export function parseRemotePath(path: string): ParsedPath {
  if (!path.startsWith('/')) return { ok: false, reason: `path "${path}" must start with "/"` };
  const segments = path.slice(1).split('/').map((segment) => segment.normalize('NFC'));
  if (segments.length > MAX_PATH_SEGMENTS + 1) return { ok: false, reason: `path has more than ${MAX_PATH_SEGMENTS} folders` };
  for (const [index, segment] of segments.entries()) {
    const problem = nameProblem(segment);
    if (problem !== undefined) return { ok: false, reason: `path segment ${index + 1} ${problem}` };
  }
  const filename = segments.pop();
  if (filename === undefined) return { ok: false, reason: 'path has no file name' };
  return { ok: true, path: { folders: segments, filename } };
}

/** The inverse of parseRemotePath. */
export function formatRemotePath(path: RemotePath): string {
  return `/${[...path.folders, path.filename].join('/')}`;
}

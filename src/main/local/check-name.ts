/**
 * Whether a name found on disk can be synced: the service's name rules (src/shared/api/remote-path.ts)
 * and its folder depth. A pure function on the walk's hot path, so the common case (short printable
 * ASCII) answers without the byte count.
 */
import { MAX_NAME_BYTES, MAX_PATH_SEGMENTS, nameProblem } from '../../shared/api/remote-path.js';
import type { NotSyncedReason } from './observations.js';

export interface NameVerdict {
  reason: Extract<NotSyncedReason, 'INVALID_NAME' | 'TOO_LONG'>;
  detail: string;
}

/** Printable ASCII (one byte a character), not starting or ending with a space: only the length to check. */
const PLAIN = /^[!-~](?:[ -~]*[!-~])?$/;

/** Folder levels a root may have below it when it maps to the top level (`/`) of the Folders field. */
export const DEFAULT_MAX_FOLDER_DEPTH = MAX_PATH_SEGMENTS;

/**
 * Why the NFC `name` at folder depth `depth` (0 for an entry at the top of the root) cannot sync, or
 * undefined when it can. `maxFolderDepth` counts folders, so a file may sit `maxFolderDepth` levels down.
 */
export function checkName(name: string, depth: number, isDirectory: boolean, maxFolderDepth: number): NameVerdict | undefined {
  const folders = isDirectory ? depth + 1 : depth;
  if (folders > maxFolderDepth) return { reason: 'TOO_LONG', detail: `more than ${maxFolderDepth} folder levels deep` };
  if (name.length <= MAX_NAME_BYTES && name !== '.' && name !== '..' && PLAIN.test(name)) return undefined;
  const problem = nameProblem(name);
  if (problem === undefined) return undefined;
  if (problem.startsWith('is longer than')) return { reason: 'TOO_LONG', detail: `name is longer than ${MAX_NAME_BYTES} UTF-8 bytes` };
  return { reason: 'INVALID_NAME', detail: `name ${problem}` };
}

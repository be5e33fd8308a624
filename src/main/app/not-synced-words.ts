/**
 * The one place that puts a "not synced" item in a designer's words for the window (and the desktop
 * notifications that quote it): what happened and what to do, from the engine's stable code, its
 * technical message and the item's name. The main line never shows an errno code (EACCES), Unicode
 * jargon (NFC/NFD) or the technical message; that stays in `detail` for "Details". The fix never
 * repeats the reason. The CLI's `status` has its own words.
 */

export interface NotSyncedItem {
  /** The engine's reason code (a scanner's `UNREADABLE`, `NAME_CLASH`…, or a transfer's error code). */
  code: string;
  /** The engine's technical message, e.g. `cannot read the file: EACCES`. */
  detail: string;
  relPath: string;
  kind: 'file' | 'folder';
}

export interface NotSyncedWords {
  /** What happened, one or two plain sentences. */
  reason: string;
  /** What to do, one plain sentence. */
  fix: string;
}

/** Errno codes that mean "not allowed", as opposed to a disk that failed. */
const DENIED = new Set(['EACCES', 'EPERM']);
/** Errno codes that mean another program holds the file. */
const BUSY = new Set(['EBUSY', 'ETXTBSY', 'EAGAIN']);

const errnoIn = (detail: string): string | undefined => /\bE[A-Z]{2,}\b/.exec(detail)?.[0];
const baseName = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

/** Where a name has white space the service cannot store: at its start, its end, both, or neither. */
export function edgeSpaces(name: string): 'start' | 'end' | 'both' | null {
  const start = /^\s/.test(name);
  const end = /\s$/.test(name);
  return start && end ? 'both' : start ? 'start' : end ? 'end' : null;
}

function unreadable(item: NotSyncedItem): NotSyncedWords {
  const errno = errnoIn(item.detail) ?? '';
  const folder = item.kind === 'folder';
  if (DENIED.has(errno)) {
    return folder
      ? { reason: 'You don’t have permission to open this folder, so nothing in it syncs.', fix: 'Check its sharing or permissions, then Retry.' }
      : { reason: 'You don’t have permission to read this file.', fix: 'Check its sharing or permissions, then Retry.' };
  }
  if (BUSY.has(errno)) return { reason: `Another app is using this ${item.kind} right now.`, fix: 'Close it in that app, then Retry.' };
  return folder
    ? { reason: 'This folder couldn’t be opened on the disk, so nothing in it syncs.', fix: 'Check that the disk is connected and working, then Retry.' }
    : { reason: 'This file couldn’t be read from the disk.', fix: 'Check that the disk is connected and working, then Retry.' };
}

function invalidName(item: NotSyncedItem): NotSyncedWords {
  const name = baseName(item.relPath);
  const inside = item.kind === 'folder' ? ', so nothing in this folder syncs' : '';
  const spaces = edgeSpaces(name);
  if (spaces !== null) {
    const where = { start: 'starts with a space', end: 'ends with a space', both: 'starts and ends with a space' }[spaces];
    const remove = { start: 'Remove the space at the start of the name.', end: 'Remove the space at the end of the name.', both: 'Remove the spaces at the start and end of the name.' }[spaces];
    return { reason: `The ${item.kind} name ${where}, which the service can’t store${inside}.`, fix: remove };
  }
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  if (/[\u0000-\u001f\u007f]/.test(name)) return { reason: `The ${item.kind} name has an invisible character the service can’t store${inside}.`, fix: 'Type the name again.' };
  if (name.includes('/')) return { reason: `The ${item.kind} name has a “/”, which the service can’t store${inside}.`, fix: 'Rename it without the “/”.' };
  // The name itself is fine, so the name the service refuses is a folder's above it.
  return { reason: 'A folder it’s in has a name the service can’t store.', fix: 'Rename that folder; it’s listed here too.' };
}

/** The plain words for one item. Unknown codes get words that promise nothing they cannot keep. */
export function notSyncedWords(item: NotSyncedItem): NotSyncedWords {
  const { kind } = item;
  switch (item.code) {
    case 'UNREADABLE':
      return unreadable(item);
    case 'INVALID_NAME':
      return invalidName(item);
    case 'NAME_CLASH':
      return { reason: `Another ${kind} here has the same name written differently (an accent typed another way, for example).`, fix: 'Rename one of them.' };
    case 'TOO_LONG':
      return /folder levels/.test(item.detail)
        ? { reason: `This ${kind} is inside too many folders for the service.`, fix: 'Move it to a folder nearer the top.' }
        : { reason: `The ${kind} name is too long for the service.`, fix: 'Shorten the name.' };
    case 'SYMLINK':
      return { reason: 'This is a link (an alias) to something elsewhere, and links aren’t synced.', fix: 'Put the file itself here instead of the link.' };
    case 'SPECIAL_FILE':
      return { reason: 'This is a system item, not a regular file, so it can’t be synced.', fix: 'Move it out of the synced folder.' };
    case 'LOCAL_FILE_CHANGED':
      return { reason: 'The file changed while it was being uploaded.', fix: 'It’s sent again once it stops changing; Retry if it doesn’t.' };
    case 'LOCAL_FILE_ERROR':
      return DENIED.has(errnoIn(item.detail) ?? '') ? unreadable({ ...item, code: 'UNREADABLE' }) : { reason: 'This file couldn’t be read while it was being uploaded.', fix: 'Check that the disk is connected and working, then Retry.' };
    case 'CHECKSUM_MISMATCH':
      return { reason: 'What arrived didn’t match the file, so it wasn’t kept.', fix: 'Retry.' };
    default:
      return { reason: `This ${kind} couldn’t be synced with the service.`, fix: 'Asset Sync tries again by itself; Retry now, or open Details if it keeps failing.' };
  }
}

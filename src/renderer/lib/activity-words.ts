/**
 * What an activity entry says in the list: the verb of a finished entry (with where the file was, for
 * a move or a conflict copy), the verb while it runs, and the glyph beside it. Every change the app
 * makes on disk reads as what happened to the file, in the user's words.
 */
import type { ActivityEntry, ActivityKind } from '../../shared/bridge/app-events.js';
import { assertNever } from './describe-state.js';
import { baseName, dirName } from './format.js';

/**
 * Where a moved file or folder was: "Renamed from a.png" in the same folder, "Moved from Drafts" under
 * the same name, "Moved from Drafts/a.png" when both changed.
 */
function movedFrom(entry: Pick<ActivityEntry, 'relPath' | 'from'>, what: string): string {
  const from = entry.from;
  if (from === null) return `${what}moved`;
  const sameFolder = dirName(from) === dirName(entry.relPath);
  if (sameFolder) return `${what}renamed from ${baseName(from)}`;
  const where = dirName(from) === '' ? 'the top level' : dirName(from);
  return baseName(from) === baseName(entry.relPath) ? `${what}moved from ${where}` : `${what}moved from ${from}`;
}

/** The words of a finished entry ("Moved to the Trash", "Conflict copy of logo.png"). */
export function activityVerb(entry: Pick<ActivityEntry, 'kind' | 'relPath' | 'from'>): string {
  switch (entry.kind) {
    case 'upload': return 'Uploaded';
    case 'download': return 'Downloaded';
    case 'move': return capitalise(movedFrom(entry, ''));
    case 'folder-move': return movedFrom(entry, 'Folder ');
    case 'delete': return 'Removed';
    case 'trash': return 'Moved to the Trash';
    case 'conflict-copy': return entry.from === null ? 'Conflict copy' : `Conflict copy of ${baseName(entry.from)}`;
    case 'copy-in': return 'Copied in';
    default: return assertNever(entry.kind);
  }
}

/** The words of an entry still running (only transfers and copies run). */
export function activityRunningVerb(kind: ActivityKind): string {
  return kind === 'download' ? 'Downloading' : kind === 'copy-in' ? 'Copying' : 'Uploading';
}

/** The glyph beside an entry. */
export function activityGlyph(kind: ActivityKind): string {
  switch (kind) {
    case 'upload': return '↑';
    case 'download': return '↓';
    case 'move':
    case 'folder-move': return '→';
    case 'delete':
    case 'trash': return '✕';
    case 'conflict-copy': return '⇄';
    case 'copy-in': return '+';
    default: return assertNever(kind);
  }
}

function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

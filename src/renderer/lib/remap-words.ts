/**
 * The words of a remap: a synced folder given another place in the service. Said before anything
 * happens: what each choice does with what is already in the old place, that files on this computer
 * stay either way, and when moving along cannot be done (the top level, a place inside the old one).
 * After: what was done.
 */
import type { RemapChoice } from '../../shared/sync/remap-choice.js';
import { plural } from './format.js';

export interface RemapOption {
  choice: RemapChoice;
  /** The button. */
  label: string;
  /** What it will do, beside the button. */
  detail: string;
  /** Why it cannot be chosen here; undefined when it can. */
  unavailable?: string;
}

export interface RemapWords {
  question: string;
  options: RemapOption[];
}

/** A place as the user reads it: `/` is the top of the library. */
const placeName = (place: string): string => (place === '/' ? 'the top of the library (/)' : place);

/** `from` → `to` for a folder holding `syncedFiles` files in step with the service. */
export function remapWords(from: string, to: string, syncedFiles: number): RemapWords {
  const files = syncedFiles === 0 ? 'what it holds' : `its ${plural(syncedFiles, 'file')}`;
  const fromName = placeName(from);
  const toName = placeName(to);
  const moveUnavailable =
    from === '/'
      ? 'Everything in the service can’t move into one folder.'
      : to === '/'
        ? `${from} can’t become the top of the library.`
        : to.startsWith(`${from}/`)
          ? `${from} can’t move into a folder inside itself.`
          : undefined;
  return {
    question: `Sync this folder with ${toName} instead of ${fromName}? Files on this computer stay where they are. What happens to what is already in ${fromName}?`,
    options: [
      {
        choice: 'move',
        label: `Move it to ${to}`,
        detail: `${from} and ${files} move to ${to} in the service. Nothing uploads again, and ${from} is no longer there.`,
        ...(moveUnavailable === undefined ? {} : { unavailable: moveUnavailable }),
      },
      {
        choice: 'leave',
        label: `Leave it in ${from}`,
        detail: `${from === '/' ? 'The top of the library (/)' : from} keeps ${files}. This folder’s files upload to ${to}, next to anything already there.`,
      },
    ],
  };
}

/** What the app says once the remap is done. */
export function remapDone(from: string, to: string, choice: RemapChoice): string {
  return choice === 'move' ? `Moved to ${to}, with its files. New files go there now.` : `Now syncing with ${to}; ${placeName(from)} keeps its files. New files go to ${to} now.`;
}

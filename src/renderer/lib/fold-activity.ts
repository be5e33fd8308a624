/**
 * Folds one frame's live activity events into the window's list (newest first): an entry the list
 * holds is replaced in place, new entries go on top, newest first. The events of one entry arrive in
 * order (added, progress, done), so of a new entry's events in one frame the last one wins: a file
 * uploaded within a frame shows as uploaded, not as still starting.
 */
import type { ActivityEntry } from '../../shared/bridge/app-events.js';

/**
 * Replaces the known entries of `entries` in place (`indexOf` finds them) and answers the list with
 * the new ones on top, or undefined when the frame brought none.
 */
export function foldActivity(entries: ActivityEntry[], indexOf: (id: number) => number | undefined, events: readonly ActivityEntry[]): ActivityEntry[] | undefined {
  const fresh = new Map<number, ActivityEntry>();
  for (const entry of events) {
    const index = indexOf(entry.id);
    if (index !== undefined) entries[index] = entry;
    else fresh.set(entry.id, entry);
  }
  if (fresh.size === 0) return undefined;
  return [...[...fresh.values()].sort((a, b) => b.id - a.id), ...entries];
}

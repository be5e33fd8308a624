/**
 * What is new in a state since the one before: conflicts, not-synced files and changed held deletions,
 * each announced as one event of its kind (the notifications and the tray listen to these). It only
 * compares what two states list; it never reads the database nor decides what a state holds.
 */
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AppState } from '../../shared/bridge/app-state.js';

const itemKey = (item: { folderId: string; relPath: string }): string => `${item.folderId}\u0000${item.relPath}`;

export class StateNews {
  private seenConflicts = new Set<number>();
  private seenNotSynced = new Set<string>();
  private seenHeld = new Map<string, number>();

  /** Emits what `state` has that the last state did not, and remembers `state` as the last. */
  announce(state: AppState, emit: (event: AppEvent) => void): void {
    const fresh = state.conflicts.filter((conflict) => !this.seenConflicts.has(conflict.id));
    this.seenConflicts = new Set(state.conflicts.map((conflict) => conflict.id));
    if (fresh.length > 0) emit({ type: 'conflicts', conflicts: fresh });
    const newItems = state.notSynced.filter((item) => !this.seenNotSynced.has(itemKey(item)));
    this.seenNotSynced = new Set(state.notSynced.map(itemKey));
    if (newItems.length > 0) emit({ type: 'not-synced', items: newItems, total: state.notSyncedTotal });
    const held = new Map(state.heldDeletions.map((view) => [view.folderId, view.count]));
    for (const view of state.heldDeletions) if ((this.seenHeld.get(view.folderId) ?? 0) !== view.count) emit({ type: 'held-deletions', held: view });
    this.seenHeld = held;
  }
}

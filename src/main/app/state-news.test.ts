import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { ConflictView, NotSyncedView } from '../../shared/bridge/app-state.js';
import { appState } from '../../../test/support/app-state-builder.js';
import { StateNews } from './state-news.js';

const conflict = (id: number): ConflictView => ({
  id,
  folderId: 'root-1',
  relPath: `c${id}.psd`,
  copyPath: `c${id} (conflict).psd`,
  detectedAt: '',
  mine: { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null },
  theirs: { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null },
});
const notSynced = (relPath: string): NotSyncedView => ({ folderId: 'root-1', relPath, kind: 'file', code: 'SYMLINK', reason: 'a link', fix: 'copy it', detail: 'symbolic links are not followed', attempts: 1, retryAt: null });
const held = (count: number) => ({ folderId: 'root-1', deletedOnComputer: count, deletedInService: 0, count, sample: [] });

describe('the news of a state', () => {
  it('announces only what is new since the last state, one event per kind', () => {
    const news = new StateNews();
    const events: AppEvent[] = [];
    const emit = (event: AppEvent): void => {
      events.push(event);
    };
    news.announce(appState({ conflicts: [conflict(1)], notSynced: [notSynced('a')], notSyncedTotal: 1, heldDeletions: [held(3)] }), emit);
    expect(events.map((event) => event.type)).toEqual(['conflicts', 'not-synced', 'held-deletions']);
    events.length = 0;
    news.announce(appState({ conflicts: [conflict(1), conflict(2)], notSynced: [notSynced('a')], notSyncedTotal: 1, heldDeletions: [held(3)] }), emit);
    expect(events).toEqual([{ type: 'conflicts', conflicts: [conflict(2)] }]);
    events.length = 0;
    news.announce(appState({ conflicts: [conflict(2)], notSynced: [notSynced('a'), notSynced('b')], notSyncedTotal: 5, heldDeletions: [held(4)] }), emit);
    expect(events).toEqual([
      { type: 'not-synced', items: [notSynced('b')], total: 5 },
      { type: 'held-deletions', held: held(4) },
    ]);
  });

  it('announces again what went away and came back', () => {
    const news = new StateNews();
    const types: string[] = [];
    const emit = (event: AppEvent): void => {
      types.push(event.type);
    };
    news.announce(appState({ conflicts: [conflict(1)] }), emit);
    news.announce(appState({ conflicts: [] }), emit);
    news.announce(appState({ conflicts: [conflict(1)] }), emit);
    expect(types).toEqual(['conflicts', 'conflicts']);
  });
});

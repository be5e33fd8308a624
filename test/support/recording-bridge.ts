/**
 * An AppBridge that records every call and answers from the test's `answers` (or a calm default), for
 * testing the transports without an app controller behind them.
 */
import type { AppBridge, BridgeMethod } from '../../src/shared/bridge/app-bridge.js';
import type { AppEvent } from '../../src/shared/bridge/app-events.js';
import { appState } from './app-state-builder.js';

export interface RecordingBridge extends AppBridge {
  calls: { method: BridgeMethod; args: unknown[] }[];
  /** Makes a method fail (or answer) differently. */
  answers: Partial<Record<BridgeMethod, (...args: unknown[]) => Promise<unknown>>>;
  /** Pushes an event to every subscriber. */
  emit(event: AppEvent): void;
  readonly subscribers: number;
}

export function createRecordingBridge(): RecordingBridge {
  const listeners = new Set<(event: AppEvent) => void>();
  const calls: RecordingBridge['calls'] = [];
  const answers: RecordingBridge['answers'] = {};
  const record = async (method: BridgeMethod, args: unknown[], fallback: unknown): Promise<any> => {
    calls.push({ method, args });
    const answer = answers[method];
    return answer === undefined ? fallback : answer(...args);
  };
  return {
    calls,
    answers,
    emit: (event) => {
      for (const listener of listeners) listener(event);
    },
    get subscribers() {
      return listeners.size;
    },
    getState: () => record('getState', [], appState()),
    listActivity: (query) => record('listActivity', [query], []),
    addFolder: (request) => record('addFolder', [request], undefined),
    removeFolder: (request) => record('removeFolder', [request], undefined),
    updateFolder: (request) => record('updateFolder', [request], undefined),
    pause: (request) => record('pause', [request], undefined),
    resume: (request) => record('resume', [request], undefined),
    syncNow: (request) => record('syncNow', [request], undefined),
    resolveConflict: (request) => record('resolveConflict', [request], undefined),
    retry: (request) => record('retry', [request], undefined),
    confirmDeletions: (request) => record('confirmDeletions', [request], undefined),
    restoreDeletions: (request) => record('restoreDeletions', [request], undefined),
    copyIn: (request) => record('copyIn', [request], { copied: request.items.length, renamed: [] }),
    signIn: (request) => record('signIn', [request], { authorizeUrl: `${request.server}/authorize` }),
    useLocalLibrary: () => record('useLocalLibrary', [], undefined),
    signOut: () => record('signOut', [], undefined),
    updateSettings: (patch) => record('updateSettings', [patch], { ...appState().settings, ...patch }),
    openPath: (request) => record('openPath', [request], undefined),
    searchAssets: (request) => record('searchAssets', [request], []),
    listPresets: () => record('listPresets', [], []),
    quickDownload: (request) =>
      record('quickDownload', [request], { id: 1, assetId: request.assetId, filename: 'a.jpg', presetId: request.presetId, presetName: 'Original', note: null, status: 'done', bytesDone: 1, bytesTotal: 1, path: '/tmp/a.jpg', error: null }),
    revealDownload: (request) => record('revealDownload', [request], undefined),
    subscribe(listener) {
      listeners.add(listener);
      listener({ type: 'state', state: appState() });
      return () => listeners.delete(listener);
    },
  };
}

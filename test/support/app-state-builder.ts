/** Builders of bridge state for the shell's unit tests (tray, notifications): a calm default, overridable. */
import type { AppState, FolderView } from '../../src/shared/bridge/app-state.js';

export function folderView(overrides: Partial<FolderView> = {}): FolderView {
  return {
    id: 'root-1',
    path: '/home/dana/Asset Sync',
    remotePath: '/',
    publishLive: false,
    activity: { kind: 'up-to-date', lastSyncedAt: '2026-03-03T09:41:00.000Z' },
    attention: { conflicts: 0, notSynced: 0, heldDeletions: 0 },
    localFiles: 12,
    syncedFiles: 12,
    serviceUrl: null,
    ...overrides,
  };
}

export function appState(overrides: Partial<AppState> = {}): AppState {
  return {
    revision: 1,
    overall: 'up-to-date',
    account: { kind: 'signed-in', server: 'http://127.0.0.1:7480', email: 'dana@example.com', name: 'Dana', local: true },
    connection: { kind: 'online' },
    paused: null,
    folders: [folderView()],
    conflicts: [],
    notSynced: [],
    notSyncedTotal: 0,
    heldDeletions: [],
    settings: { publishLive: false, uploadBytesPerSecond: null, downloadBytesPerSecond: null, launchAtLogin: false, startWithLocalLibrary: false, notifications: true, downloadFolder: null },
    quickDownload: { folder: '/home/dana/Downloads', recent: [], presets: [] },
    host: { kind: 'electron', platform: 'linux', secureStorage: true, canOpenPaths: true, version: '0.1.0' },
    ...overrides,
  };
}

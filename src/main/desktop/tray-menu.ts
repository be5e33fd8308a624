/**
 * The tray: which icon the app state shows, and the tray menu as a plain template built by a pure
 * function from the state and the recent files, so every state's menu is tested without Electron.
 * tray-menu-adapter.ts turns the template into an Electron Menu; the actions it names are carried out
 * by the shell (tray-actions in main.ts) through the same bridge the window uses.
 */
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import type { AppState, OverallState } from '../../shared/bridge/app-state.js';
import type { PauseSpan } from '../../shared/bridge/app-bridge.js';

/** The five icons of the tray (a light and a dark variant each, and a macOS template). */
export const trayIconStates = ['up-to-date', 'syncing', 'paused', 'offline', 'attention'] as const;
export type TrayIconState = (typeof trayIconStates)[number];

/** `light` suits a light menu bar or panel (a dark glyph); `dark` suits a dark one. */
export type TrayTheme = 'light' | 'dark';

export function trayIconState(overall: OverallState): TrayIconState {
  switch (overall) {
    case 'up-to-date':
      return 'up-to-date';
    case 'starting':
    case 'syncing':
    case 'waiting':
      return 'syncing';
    case 'paused':
    case 'no-folders':
      return 'paused';
    case 'offline':
      return 'offline';
    case 'no-account':
    case 'signed-out':
    case 'attention':
      return 'attention';
  }
}

/**
 * The icon's file name inside resources/tray/ (`@2x` beside it for high-density screens). macOS gets
 * the black-and-alpha `<state>Template.png`: Electron marks a file named `…Template` as a template
 * image and the menu bar tints it for light, dark and highlighted itself, so the theme plays no part
 * there. Windows and Linux get the variant for the panel's theme.
 */
export function trayIconFile(state: TrayIconState, look: { platform: NodeJS.Platform; theme: TrayTheme }): string {
  if (look.platform === 'darwin') return `${state}Template.png`;
  return `${state}-${look.theme}.png`;
}

/**
 * A route of the window (agreed with the renderer; see TEAM-NOTES.md). The quick download view takes
 * the preset to start with, as `?preset=ID` (`original` for the file as it is).
 */
export type WindowRoute = '#/' | '#/conflicts' | '#/not-synced' | '#/held-deletions' | '#/settings' | '#/activity' | '#/quick-download' | `#/quick-download?preset=${string}`;

export type TrayAction =
  | { type: 'pause'; span: PauseSpan }
  | { type: 'resume' }
  | { type: 'sync-now' }
  | { type: 'open-folder'; folderId: string }
  | { type: 'open-file'; folderId: string; relPath: string }
  | { type: 'reveal-file'; folderId: string; relPath: string }
  | { type: 'open-window'; route: WindowRoute }
  /** Downloads an asset's file again into the downloads folder (null preset: the original). */
  | { type: 'quick-download'; assetId: string; presetId: string | null }
  | { type: 'quit' };

export type TrayMenuItem =
  | { kind: 'status'; label: string }
  | { kind: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { kind: 'submenu'; label: string; items: TrayMenuItem[] }
  | { kind: 'separator' };

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function clock(iso: string): string {
  const date = new Date(iso);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** One line for the top of the menu (and the tray tooltip): the most urgent thing, in words. */
export function statusLine(state: AppState): string {
  const attention = state.conflicts.length + state.notSyncedTotal + state.heldDeletions.length;
  switch (state.overall) {
    case 'starting':
      return 'Starting…';
    case 'no-account':
      return 'Not set up yet: open Asset Sync to start';
    case 'signed-out':
      return 'Sign-in needed: nothing syncs until you sign in';
    case 'no-folders':
      return 'Nothing synced yet: open Asset Sync to add a folder';
    case 'attention': {
      const parts = [
        state.conflicts.length > 0 ? count(state.conflicts.length, 'conflict') : '',
        state.notSyncedTotal > 0 ? `${count(state.notSyncedTotal, 'file')} not synced` : '',
        state.heldDeletions.length > 0 ? 'deletions held for you to check' : '',
      ].filter((part) => part !== '');
      return parts.length > 0 ? `Needs you: ${parts.join(', ')}` : `Needs you (${attention})`;
    }
    case 'offline': {
      const waiting = state.folders.reduce((sum, folder) => sum + (folder.activity.kind === 'offline' ? folder.activity.waiting : 0), 0);
      return waiting > 0 ? `Offline — ${count(waiting, 'file')} waiting` : 'Offline — will reconnect by itself';
    }
    case 'paused':
      return state.paused?.until == null ? 'Paused until you resume' : `Paused until ${clock(state.paused.until)}`;
    case 'syncing': {
      let done = 0;
      let planned = 0;
      for (const folder of state.folders) {
        if (folder.activity.kind !== 'syncing') continue;
        const { send, receive } = folder.activity.progress;
        done += send.filesDone + receive.filesDone;
        planned += send.filesPlanned + receive.filesPlanned;
      }
      return planned > 0 ? `Syncing ${done.toLocaleString('en-US')} of ${count(planned, 'file')}` : 'Syncing…';
    }
    case 'waiting': {
      const waiting = state.folders.reduce((sum, folder) => sum + (folder.activity.kind === 'waiting' || folder.activity.kind === 'paused' ? folder.activity.waiting : 0), 0);
      return `${count(waiting, 'file')} waiting to sync`;
    }
    case 'up-to-date':
      return 'Up to date';
  }
}

function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

/** The folder's name for the menu: its last path segment. */
function folderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || trimmed;
}

/** The newest finished files, at most `limit`, one line per path. */
export function recentFiles(entries: readonly ActivityEntry[], limit = 5): ActivityEntry[] {
  const seen = new Set<string>();
  const recent: ActivityEntry[] = [];
  for (const entry of [...entries].sort((a, b) => b.id - a.id)) {
    // A file removed or sent to the Trash is no longer there to open, and a folder is no file.
    if (entry.status !== 'done' || entry.kind === 'delete' || entry.kind === 'trash' || entry.kind === 'folder-move') continue;
    const key = `${entry.folderId}\u0000${entry.relPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    recent.push(entry);
    if (recent.length === limit) break;
  }
  return recent;
}

/**
 * "Quick download": the recent assets (a click fetches the asset again with the preset used last), the
 * presets (each opens the search with that preset chosen), and "Search…".
 */
export function quickDownloadMenu(state: AppState): TrayMenuItem {
  const { recent, presets } = state.quickDownload;
  const items: TrayMenuItem[] = [];
  if (recent.length > 0) {
    items.push({ kind: 'status', label: 'Download again' });
    for (const entry of recent) {
      items.push({ kind: 'action', label: `${entry.filename} — ${entry.presetName}`, action: { type: 'quick-download', assetId: entry.assetId, presetId: entry.presetId }, enabled: true });
    }
    items.push({ kind: 'separator' });
  }
  if (presets.length > 0) {
    items.push({
      kind: 'submenu',
      label: 'Search with preset',
      items: [
        ...presets.map((preset): TrayMenuItem => ({ kind: 'action', label: `${preset.name}…`, action: { type: 'open-window', route: `#/quick-download?preset=${encodeURIComponent(preset.id)}` }, enabled: true })),
        { kind: 'action', label: 'Original…', action: { type: 'open-window', route: '#/quick-download?preset=original' }, enabled: true },
      ],
    });
  }
  items.push({ kind: 'action', label: 'Search…', action: { type: 'open-window', route: '#/quick-download' }, enabled: true });
  return { kind: 'submenu', label: 'Quick download', items };
}

export function buildTrayMenu(state: AppState, recent: readonly ActivityEntry[]): TrayMenuItem[] {
  const hasAccount = state.account.kind === 'signed-in';
  const hasFolders = state.folders.length > 0;
  const paused = state.paused !== null;
  const items: TrayMenuItem[] = [{ kind: 'status', label: statusLine(state) }];

  if (state.conflicts.length > 0) items.push({ kind: 'action', label: `Resolve ${count(state.conflicts.length, 'conflict')}…`, action: { type: 'open-window', route: '#/conflicts' }, enabled: true });
  if (state.notSyncedTotal > 0) items.push({ kind: 'action', label: `See ${count(state.notSyncedTotal, 'file')} not synced…`, action: { type: 'open-window', route: '#/not-synced' }, enabled: true });
  if (state.heldDeletions.length > 0) items.push({ kind: 'action', label: 'Check held deletions…', action: { type: 'open-window', route: '#/held-deletions' }, enabled: true });
  if (state.account.kind === 'signed-out') items.push({ kind: 'action', label: 'Sign in…', action: { type: 'open-window', route: '#/settings' }, enabled: true });
  items.push({ kind: 'separator' });

  const canSync = hasAccount && hasFolders;
  if (paused) {
    items.push({ kind: 'action', label: 'Resume syncing', action: { type: 'resume' }, enabled: true });
  } else {
    items.push({ kind: 'action', label: 'Pause for 1 hour', action: { type: 'pause', span: 'one-hour' }, enabled: canSync });
    items.push({ kind: 'action', label: 'Pause until resumed', action: { type: 'pause', span: 'until-resumed' }, enabled: canSync });
  }
  items.push({ kind: 'action', label: 'Sync now', action: { type: 'sync-now' }, enabled: canSync && !paused });
  items.push({ kind: 'separator' });

  for (const folder of state.folders) {
    items.push({ kind: 'action', label: `Open “${folderName(folder.path)}”`, action: { type: 'open-folder', folderId: folder.id }, enabled: true });
  }
  items.push({ kind: 'action', label: 'Open Asset Sync', action: { type: 'open-window', route: '#/' }, enabled: true });

  const files = recentFiles(recent);
  if (files.length > 0) {
    items.push({
      kind: 'submenu',
      label: 'Recent files',
      items: files.map((entry) => ({
        kind: 'submenu',
        label: baseName(entry.relPath),
        items: [
          { kind: 'action', label: 'Open', action: { type: 'open-file', folderId: entry.folderId, relPath: entry.relPath }, enabled: true },
          { kind: 'action', label: 'Show in folder', action: { type: 'reveal-file', folderId: entry.folderId, relPath: entry.relPath }, enabled: true },
        ],
      })),
    });
  }
  if (hasAccount) items.push(quickDownloadMenu(state));
  items.push({ kind: 'separator' });
  items.push({ kind: 'action', label: 'Quit Asset Sync', action: { type: 'quit' }, enabled: true });
  return items;
}

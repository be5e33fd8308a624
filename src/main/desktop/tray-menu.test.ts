import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import type { OverallState } from '../../shared/bridge/app-state.js';
import { appState, folderView } from '../../../test/support/app-state-builder.js';
import { buildTrayMenu, quickDownloadMenu, recentFiles, statusLine, trayIconFile, trayIconState, trayIconStates, type TrayAction, type TrayMenuItem } from './tray-menu.js';
import { toElectronTemplate } from './tray-menu-adapter.js';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';

const trayDir = fileURLToPath(new URL('../../../resources/tray/', import.meta.url));

const progress = { send: { filesDone: 3, filesPlanned: 10, bytesDone: 1, bytesPlanned: 2 }, receive: { filesDone: 1, filesPlanned: 2, bytesDone: 0, bytesPlanned: 0 }, bytesPerSecond: null, etaSeconds: null };
const conflict = { id: 1, folderId: 'root-1', relPath: 'a.psd', copyPath: 'a (conflict).psd', detectedAt: '', mine: { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null }, theirs: { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null } };

/** Every state the overall summary can take, with a state that shows it. */
const states: Record<OverallState, ReturnType<typeof appState>> = {
  starting: appState({ overall: 'starting', folders: [] }),
  'no-account': appState({ overall: 'no-account', account: { kind: 'none' }, folders: [] }),
  'no-folders': appState({ overall: 'no-folders', folders: [] }),
  'signed-out': appState({ overall: 'signed-out', account: { kind: 'signed-out', server: 'https://acme.example.com', reason: null }, folders: [folderView({ activity: { kind: 'signed-out' } })] }),
  attention: appState({ overall: 'attention', conflicts: [conflict, { ...conflict, id: 2 }], notSyncedTotal: 1 }),
  offline: appState({ overall: 'offline', folders: [folderView({ activity: { kind: 'offline', waiting: 2431, nextTryAt: null } })] }),
  paused: appState({ overall: 'paused', paused: { until: null }, folders: [folderView({ activity: { kind: 'paused', until: null, waiting: 0 } })] }),
  syncing: appState({ overall: 'syncing', folders: [folderView({ activity: { kind: 'syncing', progress } })] }),
  waiting: appState({ overall: 'waiting', folders: [folderView({ activity: { kind: 'waiting', waiting: 500 } })] }),
  'up-to-date': appState(),
};

function labels(items: readonly TrayMenuItem[]): string[] {
  return items.map((item) => (item.kind === 'separator' ? '—' : item.label));
}

function actions(items: readonly TrayMenuItem[]): { label: string; action: TrayAction; enabled: boolean }[] {
  return items.flatMap((item) => (item.kind === 'action' ? [item] : item.kind === 'submenu' ? actions(item.items) : []));
}

function entry(id: number, relPath: string, overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return { id, folderId: 'root-1', relPath, kind: 'upload', status: 'done', from: null, bytesDone: 1, bytesTotal: 1, at: '', error: null, ...overrides };
}

describe('the tray', () => {
  it.each(Object.entries(states))('shows a status line, an icon and a menu for %s', (overall, state) => {
    const menu = buildTrayMenu(state, []);
    expect(menu[0]).toEqual({ kind: 'status', label: statusLine(state) });
    expect(trayIconStates).toContain(trayIconState(state.overall));
    expect(actions(menu).at(-1)).toEqual({ kind: 'action', label: 'Quit Asset Sync', action: { type: 'quit' }, enabled: true });
    expect(labels(menu)).toContain('Open Asset Sync');
    expect(overall).toBe(state.overall);
  });

  it('words each state as the user should read it', () => {
    expect(Object.fromEntries(Object.entries(states).map(([overall, state]) => [overall, statusLine(state)]))).toEqual({
      starting: 'Starting…',
      'no-account': 'Not set up yet: open Asset Sync to start',
      'signed-out': 'Sign-in needed: nothing syncs until you sign in',
      'no-folders': 'Nothing synced yet: open Asset Sync to add a folder',
      attention: 'Needs you: 2 conflicts, 1 file not synced',
      offline: 'Offline — 2,431 files waiting',
      paused: 'Paused until you resume',
      syncing: 'Syncing 4 of 12 files',
      waiting: '500 files waiting to sync',
      'up-to-date': 'Up to date',
    });
    const until = '2026-03-03T10:41:00.000Z';
    const local = new Date(until);
    const expected = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`;
    expect(statusLine(appState({ overall: 'paused', paused: { until } }))).toBe(`Paused until ${expected}`);
  });

  it('maps each overall state to one of the five icons', () => {
    expect(Object.keys(states).map((overall) => trayIconState(overall as OverallState))).toEqual(['syncing', 'attention', 'paused', 'attention', 'attention', 'offline', 'paused', 'syncing', 'syncing', 'up-to-date']);
  });

  const platforms = ['darwin', 'win32', 'linux'] as const;
  const looks = platforms.flatMap((platform) => (['light', 'dark'] as const).map((theme) => ({ platform, theme })));

  it.each(trayIconStates.flatMap((state) => looks.map((look) => [state, look.platform, look.theme] as const)))('shows %s on %s (%s theme) with an icon that exists at 1x and 2x', (state, platform, theme) => {
    const file = trayIconFile(state, { platform, theme });
    expect(file).toBe(platform === 'darwin' ? `${state}Template.png` : `${state}-${theme}.png`);
    expect(existsSync(`${trayDir}${file}`)).toBe(true);
    expect(existsSync(`${trayDir}${file.replace('.png', '@2x.png')}`)).toBe(true);
  });

  it('gives every state its own icon on every platform and theme', () => {
    for (const look of looks) expect(new Set(trayIconStates.map((state) => trayIconFile(state, look))).size).toBe(trayIconStates.length);
  });

  it.each(trayIconStates.flatMap((state) => [`${state}Template.png`, `${state}Template@2x.png`]))('draws the macOS template %s in black and alpha only', async (file) => {
    const { data, info } = await sharp(`${trayDir}${file}`).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(info.width).toBe(file.includes('@2x') ? 32 : 16);
    let visible = 0;
    for (let i = 0; i < data.length; i += 4) {
      expect([data[i], data[i + 1], data[i + 2]]).toEqual([0, 0, 0]);
      if ((data[i + 3] ?? 0) > 0) visible += 1;
    }
    // Not blank, not a filled square: a glyph.
    expect(visible).toBeGreaterThan(info.width * 2);
    expect(visible).toBeLessThan(info.width * info.height);
  });

  it('offers pause for 1 hour or until resumed, and sync now, while syncing runs', () => {
    const menu = buildTrayMenu(states['up-to-date'], []);
    expect(labels(menu)).toEqual(['Up to date', '—', 'Pause for 1 hour', 'Pause until resumed', 'Sync now', '—', 'Open “Asset Sync”', 'Open Asset Sync', 'Quick download', '—', 'Quit Asset Sync']);
    expect(actions(menu).slice(0, 4).map((item) => item.action)).toEqual([
      { type: 'pause', span: 'one-hour' },
      { type: 'pause', span: 'until-resumed' },
      { type: 'sync-now' },
      { type: 'open-folder', folderId: 'root-1' },
    ]);
  });

  it('offers resume instead of pause while paused, and no sync now', () => {
    const menu = actions(buildTrayMenu(states.paused, []));
    expect(menu.map((item) => item.label)).toContain('Resume syncing');
    expect(menu.map((item) => item.label)).not.toContain('Pause for 1 hour');
    expect(menu.find((item) => item.label === 'Sync now')?.enabled).toBe(false);
  });

  it('disables pause and sync now without an account or a folder', () => {
    for (const state of [states['no-account'], states.starting]) {
      const menu = actions(buildTrayMenu(state, []));
      expect(menu.filter((item) => ['Pause for 1 hour', 'Pause until resumed', 'Sync now'].includes(item.label)).every((item) => !item.enabled)).toBe(true);
    }
  });

  it('leads to what needs the user: conflicts, files not synced, held deletions, sign-in', () => {
    const needy = appState({
      overall: 'attention',
      conflicts: [conflict],
      notSyncedTotal: 3,
      heldDeletions: [{ folderId: 'root-1', deletedOnComputer: 0, deletedInService: 60, count: 60, sample: [] }],
    });
    expect(actions(buildTrayMenu(needy, [])).slice(0, 3)).toEqual([
      { kind: 'action', label: 'Resolve 1 conflict…', action: { type: 'open-window', route: '#/conflicts' }, enabled: true },
      { kind: 'action', label: 'See 3 files not synced…', action: { type: 'open-window', route: '#/not-synced' }, enabled: true },
      { kind: 'action', label: 'Check held deletions…', action: { type: 'open-window', route: '#/held-deletions' }, enabled: true },
    ]);
    expect(actions(buildTrayMenu(states['signed-out'], []))[0]?.action).toEqual({ type: 'open-window', route: '#/settings' });
  });

  it('opens each synced folder by its name', () => {
    const state = appState({ folders: [folderView({ id: 'a', path: '/home/dana/Brand/' }), folderView({ id: 'b', path: 'C:\\Users\\dana\\Shots' })] });
    expect(actions(buildTrayMenu(state, [])).filter((item) => item.action.type === 'open-folder').map((item) => item.label)).toEqual(['Open “Brand”', 'Open “Shots”']);
  });

  it('lists the five newest finished files once each, with open and show in folder', () => {
    const entries = [entry(1, 'old.png'), entry(2, 'Shots/a.png'), entry(3, 'b.png', { status: 'running' }), entry(4, 'gone.png', { kind: 'delete' }), entry(5, 'Shots/a.png'), entry(6, 'c.png'), entry(7, 'd.png'), entry(8, 'e.png'), entry(9, 'f.png')];
    expect(recentFiles(entries).map((e) => e.id)).toEqual([9, 8, 7, 6, 5]);
    // Nothing to open: a file sent to the Trash, a folder that moved.
    const gone = [entry(10, 'binned.png', { kind: 'trash' }), entry(11, 'Shots', { kind: 'folder-move', from: 'Shoots' })];
    expect(recentFiles([...entries, ...gone]).map((e) => e.id)).toEqual([9, 8, 7, 6, 5]);
    const menu = buildTrayMenu(states['up-to-date'], entries);
    const recent = menu.find((item) => item.kind === 'submenu');
    expect(recent?.kind === 'submenu' ? labels(recent.items) : []).toEqual(['f.png', 'e.png', 'd.png', 'c.png', 'a.png']);
    const last = recent?.kind === 'submenu' ? recent.items[4] : undefined;
    expect(last?.kind === 'submenu' ? actions(last.items).map((item) => item.action) : []).toEqual([
      { type: 'open-file', folderId: 'root-1', relPath: 'Shots/a.png' },
      { type: 'reveal-file', folderId: 'root-1', relPath: 'Shots/a.png' },
    ]);
  });

  describe('quick download', () => {
    const presets = [
      { id: 'p-web', name: 'Web (1000 px JPG)' },
      { id: 'p/thumb', name: 'Thumbnail (300 px WEBP)' },
    ];
    const recent = [
      { assetId: 'a-2', filename: 'harbour.jpg', presetId: 'p-web', presetName: 'Web (1000 px JPG)', at: '2026-03-03T10:00:00.000Z' },
      { assetId: 'a-1', filename: 'brief.pdf', presetId: null, presetName: 'Original', at: '2026-03-03T09:00:00.000Z' },
    ];
    const submenuOf = (items: readonly TrayMenuItem[], label: string): TrayMenuItem[] => {
      const found = items.find((item) => item.kind === 'submenu' && item.label === label);
      return found?.kind === 'submenu' ? found.items : [];
    };

    it('offers only "Search…" before anything was downloaded and before the presets are known', () => {
      const menu = quickDownloadMenu(appState());
      expect(menu).toEqual({ kind: 'submenu', label: 'Quick download', items: [{ kind: 'action', label: 'Search…', action: { type: 'open-window', route: '#/quick-download' }, enabled: true }] });
    });

    it('downloads a recent asset again with the preset used last, newest first', () => {
      const items = submenuOf(buildTrayMenu(appState({ quickDownload: { folder: '/d', recent, presets } }), []), 'Quick download');
      expect(labels(items)).toEqual(['Download again', 'harbour.jpg — Web (1000 px JPG)', 'brief.pdf — Original', '—', 'Search with preset', 'Search…']);
      expect(actions(items).slice(0, 2).map((item) => item.action)).toEqual([
        { type: 'quick-download', assetId: 'a-2', presetId: 'p-web' },
        { type: 'quick-download', assetId: 'a-1', presetId: null },
      ]);
    });

    it('opens the search with a preset chosen, its id made safe for the address', () => {
      const items = submenuOf(submenuOf(buildTrayMenu(appState({ quickDownload: { folder: '/d', recent: [], presets } }), []), 'Quick download'), 'Search with preset');
      expect(actions(items).map((item) => [item.label, item.action])).toEqual([
        ['Web (1000 px JPG)…', { type: 'open-window', route: '#/quick-download?preset=p-web' }],
        ['Thumbnail (300 px WEBP)…', { type: 'open-window', route: '#/quick-download?preset=p%2Fthumb' }],
        ['Original…', { type: 'open-window', route: '#/quick-download?preset=original' }],
      ]);
    });

    it('is not offered without an account (there is nothing to search)', () => {
      for (const state of [states['no-account'], states['signed-out']]) expect(labels(buildTrayMenu(state, []))).not.toContain('Quick download');
    });

    it('runs a recent download from the Electron menu', () => {
      const run: TrayAction[] = [];
      const template = toElectronTemplate(buildTrayMenu(appState({ quickDownload: { folder: '/d', recent, presets } }), []), (action) => run.push(action));
      const quick = template.find((item) => item.label === 'Quick download');
      const again = Array.isArray(quick?.submenu) ? quick.submenu.find((item) => item.label === 'brief.pdf — Original') : undefined;
      again?.click?.(undefined as never, undefined, undefined as never);
      expect(run).toEqual([{ type: 'quick-download', assetId: 'a-1', presetId: null }]);
    });
  });

  it('becomes an Electron template whose clicks run the actions', () => {
    const run: TrayAction[] = [];
    const template = toElectronTemplate(buildTrayMenu(states['up-to-date'], [entry(1, 'a.png')]), (action) => run.push(action));
    expect(template[0]).toEqual({ label: 'Up to date', enabled: false });
    expect(template[1]).toEqual({ type: 'separator' });
    const pause = template.find((item) => item.label === 'Pause for 1 hour');
    pause?.click?.(undefined as never, undefined, undefined as never);
    const recent = template.find((item) => item.label === 'Recent files');
    const file = Array.isArray(recent?.submenu) ? recent.submenu[0] : undefined;
    const reveal = Array.isArray(file?.submenu) ? file.submenu[1] : undefined;
    reveal?.click?.(undefined as never, undefined, undefined as never);
    expect(run).toEqual([{ type: 'pause', span: 'one-hour' }, { type: 'reveal-file', folderId: 'root-1', relPath: 'a.png' }]);
  });
});

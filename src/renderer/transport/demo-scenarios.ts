/**
 * The demo's scenarios (demo-bridge.ts): the states each `?demo=` shows, its assets and presets for
 * quick download, and a long activity history. Data only: the bridge obeys commands on top of them.
 */
import type { ActivityEntry, ActivityKind } from '../../shared/bridge/app-events.js';
import type { AppSettings, AppState, ConflictView, FolderActivity, FolderView, HeldDeletionsView, NotSyncedView } from '../../shared/bridge/app-state.js';
import type { QuickPreset, QuickSearchResult } from '../../shared/bridge/quick-download.js';

export const iso = (offsetSeconds: number): string => new Date(Date.now() + offsetSeconds * 1000).toISOString();

export const defaultSettings: AppSettings = {
  publishLive: false,
  uploadBytesPerSecond: null,
  downloadBytesPerSecond: null,
  launchAtLogin: true,
  startWithLocalLibrary: false,
  notifications: true,
  downloadFolder: null,
};

export const demoPresets: QuickPreset[] = [
  { id: 'web', name: 'Web (1000 px JPG)' },
  { id: 'thumbnail', name: 'Thumbnail (300 px WEBP)' },
  { id: 'print', name: 'Print (TIFF)' },
  { id: 'social', name: 'Social (1080×1080 crop)' },
];

export const demoAssets: QuickSearchResult[] = ['Harbour at dawn.jpg', 'Harbour night.jpg', 'Brand guide 2026.pdf', 'Logo primary.svg', 'Team offsite.mov', 'Campaign hero.psd'].map((filename, index) => ({
  assetId: `asset-${index + 1}`,
  filename,
  size: 1_200_000 + index * 734_003,
  fileType: filename.endsWith('.mov') ? 'VIDEO' : filename.endsWith('.pdf') ? 'DOCUMENT' : 'IMAGE',
  dimensions: filename.endsWith('.jpg') ? { width: 4000, height: 3000 } : null,
  previewUrl: null,
  // The demo service's presets make raster images: a PDF, a movie or a Photoshop file arrives as it is.
  presetIds: /\.(jpg|svg)$/.test(filename) ? demoPresets.map((preset) => preset.id) : [],
}));

export function folder(id: string, path: string, remotePath: string, activity: FolderActivity, extra: Partial<FolderView> = {}): FolderView {
  return {
    id,
    path,
    remotePath,
    publishLive: false,
    activity,
    attention: { conflicts: 0, notSynced: 0, heldDeletions: 0 },
    localFiles: 1204,
    syncedFiles: 1204,
    serviceUrl: `http://127.0.0.1:7480/folders${remotePath}`,
    ...extra,
  };
}

/** A tiny SVG image as a data-free preview: a coloured square with a letter, served as a blob URL. */
export function previewUrl(colour: string, letter: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="${colour}"/><text x="80" y="76" font-size="44" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
  return URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
}

export function busyState(): AppState {
  const brand = folder('brand', '/Users/ana/Asset Sync/Brand', '/Brand', {
    kind: 'syncing',
    progress: {
      send: { filesDone: 128, filesPlanned: 412, bytesDone: 1_840_000_000, bytesPlanned: 4_210_000_000 },
      receive: { filesDone: 3, filesPlanned: 9, bytesDone: 12_000_000, bytesPlanned: 40_000_000 },
      bytesPerSecond: 18_400_000,
      etaSeconds: 131,
    },
  }, { attention: { conflicts: 2, notSynced: 0, heldDeletions: 0 }, localFiles: 3120, syncedFiles: 2711 });
  const campaigns = folder('campaigns', '/Users/ana/Asset Sync/Campaigns 2026', '/Campaigns/2026', { kind: 'attention' }, {
    attention: { conflicts: 0, notSynced: 3, heldDeletions: 0 },
    publishLive: true,
  });
  const photos = folder('photos', '/Volumes/Studio/Photography', '/Photography', { kind: 'offline', waiting: 2431, nextTryAt: iso(28) }, { localFiles: 18_402, syncedFiles: 15_971 });
  const archive = folder('archive', '/Users/ana/Asset Sync/Archive', '/Archive', { kind: 'paused', until: null, waiting: 14 }, { attention: { conflicts: 0, notSynced: 0, heldDeletions: 1204 }, syncedFiles: 1190 });
  const usb = folder('usb', '/Volumes/USB/Handoff', '/Handoff', {
    kind: 'stopped',
    reason: 'MISSING_FOLDER',
    message: 'The folder /Volumes/USB/Handoff is not there; nothing was deleted.',
    fix: 'Reconnect the drive, or remove this folder from Asset Sync.',
  }, { serviceUrl: null });
  const fonts = folder('fonts', '/Users/ana/Asset Sync/Fonts', '/Fonts', { kind: 'scanning' });
  const conflicts: ConflictView[] = [
    {
      id: 7,
      folderId: 'brand',
      relPath: 'Logos/wordmark.png',
      copyPath: 'Logos/wordmark (conflict 2026-03-03 094112).png',
      detectedAt: iso(-420),
      mine: { size: 482_113, modifiedAt: iso(-900), modifiedBy: null, previewUrl: previewUrl('#3867d6', 'M') },
      theirs: { size: 501_877, modifiedAt: iso(-1300), modifiedBy: { kind: 'person', name: 'Jonas Weber' }, previewUrl: previewUrl('#20bf6b', 'T') },
    },
    {
      id: 8,
      folderId: 'brand',
      relPath: 'Guidelines/brand-book.pdf',
      copyPath: 'Guidelines/brand-book (conflict 2026-03-03 094500).pdf',
      detectedAt: iso(-200),
      mine: { size: 12_400_000, modifiedAt: iso(-600), modifiedBy: null, previewUrl: null },
      theirs: { size: 12_380_112, modifiedAt: iso(-640), modifiedBy: { kind: 'person', name: 'Mia Chen' }, previewUrl: null },
    },
  ];
  const notSynced: NotSyncedView[] = [
    { folderId: 'campaigns', relPath: 'Spring/hero-final.psd', kind: 'file', code: 'UNREADABLE', reason: 'You don’t have permission to read this file.', fix: 'Check its sharing or permissions, then Retry.', detail: 'cannot read the file: EACCES', attempts: 3, retryAt: null },
    { folderId: 'campaigns', relPath: 'Spring/brief.pdf ', kind: 'file', code: 'INVALID_NAME', reason: 'The file name ends with a space, which the service can’t store.', fix: 'Remove the space at the end of the name.', detail: 'name starts or ends with white space', attempts: 1, retryAt: null },
    { folderId: 'campaigns', relPath: 'Video/Old cuts', kind: 'folder', code: 'UNREADABLE', reason: 'You don’t have permission to open this folder, so nothing in it syncs.', fix: 'Check its sharing or permissions, then Retry.', detail: 'cannot list the folder: EACCES', attempts: 1, retryAt: iso(300) },
  ];
  const heldDeletions: HeldDeletionsView[] = [
    { folderId: 'archive', deletedOnComputer: 1204, deletedInService: 0, count: 1204, sample: Array.from({ length: 40 }, (_, index) => `2019/Shoot ${String(index + 1).padStart(2, '0')}/IMG_${4000 + index}.jpg`) },
  ];
  return {
    revision: 1,
    overall: 'attention',
    account: { kind: 'signed-in', server: 'https://assets.acme.example', email: 'ana@acme.example', name: 'Ana Lima', local: false },
    connection: { kind: 'online' },
    paused: null,
    folders: [brand, campaigns, photos, archive, usb, fonts],
    conflicts,
    notSynced,
    notSyncedTotal: notSynced.length,
    heldDeletions,
    settings: { ...defaultSettings, uploadBytesPerSecond: 5_000_000 },
    quickDownload: { folder: '/Users/ana/Downloads', recent: [{ assetId: 'asset-1', filename: 'Harbour at dawn.jpg', presetId: 'web', presetName: 'Web (1000 px JPG)', at: iso(-3600) }], presets: demoPresets },
    host: { kind: 'headless', platform: 'linux', secureStorage: false, canOpenPaths: true, version: '0.1.0' },
  };
}

export function calmState(): AppState {
  const state = busyState();
  return {
    ...state,
    overall: 'up-to-date',
    folders: state.folders.slice(0, 3).map((view, index) => ({
      ...view,
      activity: { kind: 'up-to-date', lastSyncedAt: iso(-60 * (index * 7 + 2)) },
      attention: { conflicts: 0, notSynced: 0, heldDeletions: 0 },
      syncedFiles: view.localFiles,
    })),
    conflicts: [],
    notSynced: [],
    notSyncedTotal: 0,
    heldDeletions: [],
  };
}

export function firstRunState(): AppState {
  return {
    ...calmState(),
    overall: 'no-account',
    account: { kind: 'none' },
    folders: [],
  };
}

const kinds: ActivityKind[] = ['upload', 'upload', 'download', 'upload', 'move', 'trash', 'copy-in', 'conflict-copy'];
const names = ['hero', 'wordmark', 'icon-set', 'banner', 'poster', 'storyboard', 'moodboard', 'mockup'];
const exts = ['.png', '.psd', '.jpg', '.pdf', '.ai', '.mov'];

/** Entry `n` of a long history, newest at n = 0; a few at the top still running. */
export function historyEntry(id: number, total: number): ActivityEntry {
  const n = total - id;
  const size = ((id * 7919) % 50_000) * 1000 + 2000;
  const running = n < 3;
  // Only transfers run and have a size; a move, a conflict copy or a file sent to the Trash has none.
  const kind = running ? 'upload' : (kinds[id % kinds.length] ?? 'upload');
  const sized = kind === 'upload' || kind === 'download' || kind === 'copy-in';
  const name = `${names[id % names.length] ?? 'file'}-${id}${exts[id % exts.length] ?? '.png'}`;
  return {
    id,
    folderId: ['brand', 'campaigns', 'photos'][id % 3] ?? 'brand',
    relPath: `Shoot ${Math.floor(id / 40)}/${kind === 'conflict-copy' ? name.replace(/(\.\w+)$/, ' (conflict 2026-12-07 101500)$1') : name}`,
    kind,
    from: kind === 'move' ? `Inbox/${name}` : kind === 'conflict-copy' ? `Shoot ${Math.floor(id / 40)}/${name}` : null,
    status: running ? 'running' : id % 97 === 0 ? 'failed' : 'done',
    bytesDone: running ? Math.round(size * (0.2 + 0.3 * n)) : sized ? size : 0,
    bytesTotal: sized ? size : null,
    at: new Date(Date.now() - n * 9000).toISOString(),
    error: id % 97 === 0 && !running ? { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: 'The service did not answer; it will be tried again.' } : null,
  };
}


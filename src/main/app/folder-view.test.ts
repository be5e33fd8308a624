import { describe, expect, it } from 'vitest';
import type { RootStatus } from '../store/read-status.js';
import type { StoreQueries } from '../store/state-store.js';
import type { AppState } from '../../shared/bridge/app-state.js';
import { folderActivity, folderView, folderViews, heldDeletionViews, notSyncedViews, overallState, withoutUnreachable, type FolderRuntime } from './folder-view.js';

const status = (notSynced: RootStatus['notSynced'] = []): RootStatus => ({
  id: 'f1',
  path: '/home/d/Asset Sync',
  server: 'http://127.0.0.1:7480',
  remotePath: '/',
  publishLive: false,
  stopped: null,
  localFiles: 5,
  syncedFiles: 2,
  pendingUploads: 0,
  reachedService: true,
  uploadsInProgress: [],
  notSynced,
  heldDeletes: { count: 0, confirmed: false, sample: [], local: 0 },
  conflicts: [],
  state: 'UP_TO_DATE',
});

type HeldDeleteRow = ReturnType<StoreQueries['heldDeletes']>[number];

const issue = (relPath: string, reason: string) => ({ relPath, reason, detail: '', isFolder: false, attempts: 1, retryAt: null });
const runtime: FolderRuntime = { paused: undefined, passedOnce: true, progress: undefined, lastSyncedAt: null };
const signedIn = { kind: 'signed-in', server: 'http://127.0.0.1:7480', email: 'a@b', name: 'A', local: true } as const;

describe('folder views', () => {
  it('offline, files that failed only to reach the service wait instead of needing attention', () => {
    const split = withoutUnreachable(status([issue('a.png', 'NETWORK'), issue('b.png', 'TIMEOUT'), issue('locked.psd', 'UNREADABLE')]));
    expect(split.waiting).toBe(2);
    expect(split.status.notSynced.map((item) => item.relPath)).toEqual(['locked.psd']);
    const offline = folderActivity(split.status, runtime, signedIn, { online: false, nextTryAt: null }, split.waiting);
    expect(offline).toEqual({ kind: 'offline', waiting: 2, nextTryAt: null });
    const onlyNetwork = withoutUnreachable(status([issue('a.png', 'NETWORK')])).status;
    const view = folderView(onlyNetwork, offline, null);
    expect(overallState({ account: signedIn, folders: [view], connection: { kind: 'offline', server: 's', since: 'x', nextTryAt: null, error: { name: 'E', code: 'C', message: 'm' } }, paused: null }, false)).toBe('offline');
  });

  it('says what is wrong and what to try in plain words, and keeps the code and the technical message apart', () => {
    const [file, folder] = notSyncedViews([
      status([
        { relPath: 'x.psd', reason: 'UNREADABLE', detail: 'cannot read the file: EACCES', isFolder: false, attempts: 2, retryAt: null },
        { relPath: 'Old drafts', reason: 'UNREADABLE', detail: 'cannot list the folder: EACCES', isFolder: true, attempts: 1, retryAt: null },
      ]),
    ]);
    expect(file).toMatchObject({ kind: 'file', code: 'UNREADABLE', reason: 'You don’t have permission to read this file.', detail: 'cannot read the file: EACCES', attempts: 2 });
    expect(file?.fix).toBe('Check its sharing or permissions, then Retry.');
    expect(folder).toMatchObject({ kind: 'folder', reason: 'You don’t have permission to open this folder, so nothing in it syncs.' });
  });

  it('puts a stopped folder, then attention, before offline, paused and syncing', () => {
    const stopped = folderActivity({ ...status(), stopped: 'MISSING_FOLDER: gone' }, runtime, signedIn, { online: true, nextTryAt: null }, 0);
    expect(stopped).toMatchObject({ kind: 'stopped', reason: 'MISSING_FOLDER' });
    const paused = folderActivity(status(), { ...runtime, paused: { until: null } }, signedIn, { online: false, nextTryAt: null }, 3);
    expect(paused).toEqual({ kind: 'paused', until: null, waiting: 3 });
    expect(folderActivity(status(), { ...runtime, passedOnce: false }, signedIn, { online: true, nextTryAt: null }, 0)).toEqual({ kind: 'scanning' });
    expect(folderActivity(status(), runtime, { kind: 'signed-out', server: 's', reason: null }, { online: true, nextTryAt: null }, 0)).toEqual({ kind: 'signed-out' });
  });

  it('counts held deletions by the side they happened on, the opposite of the side they would be carried out on', () => {
    const row = (relPath: string, direction: HeldDeleteRow['direction']): HeldDeleteRow => ({ root_id: 'f1', rel_path: relPath, asset_id: `a-${relPath}`, confirmed: 0, direction });
    const rows = [row('here-1.png', 'REMOTE'), row('here-2.png', 'REMOTE'), row('there.png', 'LOCAL')];
    const held = { ...status(), heldDeletes: { count: 3, confirmed: false, sample: [], local: 1 } };
    const [view] = heldDeletionViews({ heldDeletes: () => rows }, [held]);
    expect(view).toEqual({ folderId: 'f1', deletedOnComputer: 2, deletedInService: 1, count: 3, sample: ['here-1.png', 'here-2.png', 'there.png'] });
  });
});

/** The folders and the overall word the projection builds from these statuses, online and signed in unless told. */
function project(statuses: RootStatus[], options: { runtime?: Partial<FolderRuntime>; online?: boolean; paused?: AppState['paused'] } = {}) {
  const online = options.online ?? true;
  const { folders } = folderViews(statuses, () => ({ ...runtime, ...options.runtime }), signedIn, { online, nextTryAt: null });
  const connection: AppState['connection'] = online ? { kind: 'online' } : { kind: 'offline', server: 's', since: 'x', nextTryAt: null, error: { name: 'E', code: 'C', message: 'm' } };
  return { folders, overall: overallState({ account: signedIn, folders, connection, paused: options.paused ?? null }, false) };
}

const inStep = (files: number): RootStatus => ({ ...status(), localFiles: files, syncedFiles: files });

describe('"up to date" only when it is', () => {
  it('is up to date when nothing waits, fails, is held or is in conflict', () => {
    const { folders, overall } = project([inStep(33)]);
    expect(folders[0]?.activity).toEqual({ kind: 'up-to-date', lastSyncedAt: null });
    expect(overall).toBe('up-to-date');
  });

  it('is not up to date with files that could not sync (0 of 92 in step, 92 not synced)', () => {
    const failed = Array.from({ length: 92 }, (_, index) => issue(`f${index}.png`, 'UNREADABLE'));
    const { folders, overall } = project([{ ...status(failed), localFiles: 92, syncedFiles: 0 }]);
    expect(folders[0]?.activity).toEqual({ kind: 'attention' });
    expect(folders[0]?.attention.notSynced).toBe(92);
    expect(overall).toBe('attention');
  });

  it('is not up to date with deletions held by the guard', () => {
    const { folders, overall } = project([{ ...inStep(2115), heldDeletes: { count: 2115, confirmed: false, sample: [], local: 2115 } }]);
    expect(folders[0]?.activity).toEqual({ kind: 'attention' });
    expect(overall).toBe('attention');
  });

  it('is not up to date with a conflict', () => {
    const { folders } = project([{ ...inStep(3), conflicts: [{ id: 1, relPath: 'a.psd', copyPath: 'a (conflict).psd', dateCreated: 'x' }] }]);
    expect(folders[0]?.activity).toEqual({ kind: 'attention' });
  });

  it('with no folders at all says nothing is synced yet', () => {
    expect(project([]).overall).toBe('no-folders');
  });

  it('paused with local edits waiting counts them, and the app waits for them', () => {
    const edited = { ...inStep(33), syncedFiles: 29, pendingUploads: 4 };
    const paused = project([edited], { runtime: { paused: { until: null } } });
    expect(paused.folders[0]?.activity).toEqual({ kind: 'paused', until: null, waiting: 4 });
    expect(paused.overall).toBe('paused');
    const oneOfTwo = project([edited, { ...inStep(5), id: 'f2' }], { runtime: {} });
    expect(oneOfTwo.folders[0]?.activity).toEqual({ kind: 'waiting', waiting: 4 });
    const onePaused = { folders: [paused.folders[0], project([{ ...inStep(5), id: 'f2' }]).folders[0]].flatMap((view) => (view === undefined ? [] : [view])) };
    expect(overallState({ account: signedIn, ...onePaused, connection: { kind: 'online' }, paused: null }, false)).toBe('waiting');
  });

  it('counts files that failed only to reach the service as waiting, online as well as offline', () => {
    const reconnected = status([...Array.from({ length: 500 }, (_, index) => issue(`Offline/f${index}.txt`, 'NETWORK'))]);
    const online = project([reconnected]);
    expect(online.folders[0]?.activity).toEqual({ kind: 'waiting', waiting: 500 });
    expect(online.folders[0]?.attention.notSynced).toBe(0);
    expect(online.overall).toBe('waiting');
    const offline = project([reconnected], { online: false });
    expect(offline.folders[0]?.activity).toEqual({ kind: 'offline', waiting: 500, nextTryAt: null });
    expect(offline.overall).toBe('offline');
    const mixed = project([status([issue('a.png', 'NETWORK'), issue('locked.psd', 'UNREADABLE')])]);
    expect(mixed.folders[0]?.activity).toEqual({ kind: 'attention' });
    expect(mixed.folders[0]?.attention.notSynced).toBe(1);
  });

  it('counts a file once when its upload failed to reach the service and is still in the journal', () => {
    const failed = { ...status([issue('a.png', 'NETWORK'), issue('b.png', 'NETWORK')]), uploadsInProgress: [{ relPath: 'a.png', partsDone: 1 }, { relPath: 'b.png', partsDone: 0 }] };
    expect(project([failed], { online: false }).folders[0]?.activity).toEqual({ kind: 'offline', waiting: 2, nextTryAt: null });
    expect(project([{ ...failed, pendingUploads: 1 }]).folders[0]?.activity).toEqual({ kind: 'waiting', waiting: 3 });
  });

  it('is not up to date while uploads wait between passes', () => {
    const { folders, overall } = project([{ ...inStep(10), syncedFiles: 9, pendingUploads: 1 }]);
    expect(folders[0]?.activity).toEqual({ kind: 'waiting', waiting: 1 });
    expect(overall).toBe('waiting');
  });
});

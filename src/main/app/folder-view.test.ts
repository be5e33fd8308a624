import { describe, expect, it } from 'vitest';
import type { RootStatus } from '../store/read-status.js';
import type { StoreQueries } from '../store/state-store.js';
import { folderActivity, folderView, heldDeletionViews, notSyncedViews, overallState, withoutUnreachable, type FolderRuntime } from './folder-view.js';

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

const issue = (relPath: string, reason: string) => ({ relPath, reason, detail: '', attempts: 1, retryAt: null });
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

  it('says what is wrong and what to try in plain words', () => {
    const [view] = notSyncedViews([status([{ relPath: 'x.psd', reason: 'UNREADABLE', detail: 'EACCES', attempts: 2, retryAt: null }])]);
    expect(view).toMatchObject({ code: 'UNREADABLE', reason: 'Asset Sync is not allowed to read it. (EACCES)', attempts: 2 });
    expect(view?.fix).toMatch(/permission/);
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

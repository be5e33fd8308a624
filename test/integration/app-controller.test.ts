/**
 * The app controller end to end (issue 16), through `startHeadlessApp` as `npm start` runs it: the real
 * embedded local service, a temp folder, the real engine and watcher. What a designer would see: a file
 * syncs up; a conflict made through the API resolved each of the three ways; offline and back with
 * everything arriving once; pause and resume; a drop named ` (2)`; settings that survive a restart and a
 * broken settings file kept aside with a clear error; a folder that would overlap another refused.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHeadlessApp, type HeadlessApp } from '../../src/main/headless/headless-app.js';
import { createApiClient, type ApiClient } from '../../src/main/api/index.js';
import { staticTokenProvider } from '../../src/main/api/api-client.js';
import { createFreedesktopTrash } from '../../src/main/local/index.js';
import { LOCAL_SUBDOMAIN } from '../../src/service/bootstrap.js';
import type { AppState } from '../../src/shared/bridge/app-state.js';
import { sendParts } from '../support/upload-helpers.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

interface Setup {
  base: string;
  folder: string;
  stateDir: string;
  dataDir: string;
}

function setup(): Setup {
  const base = tempDir('asset-sync-app-');
  return { base, folder: join(base, 'Asset Sync'), stateDir: join(base, 'state'), dataDir: join(base, 'data') };
}

function start(where: Setup): Promise<HeadlessApp> {
  return startHeadlessApp({
    stateDir: where.stateDir,
    dataDir: where.dataDir,
    folder: where.folder,
    servicePort: 0,
    stableMs: 50,
    publishMs: 20,
    remote: { pollIntervalMs: 200, overlapMs: 1000 },
    staticDir: join(where.base, 'no-ui'),
    env: { ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' },
    deps: { trash: createFreedesktopTrash({ dataHome: join(where.base, 'trash-home') }) },
  });
}

/** The local service as a colleague in the web app sees it: a token of the admin, the API. */
async function webApp(app: HeadlessApp): Promise<{ api: ApiClient; token: string; server: string }> {
  const running = app.service();
  if (running === undefined) throw new Error('no local library');
  const admin = running.ctx.accounts.userByEmail(running.ctx.config.adminEmail);
  if (admin === undefined) throw new Error('no admin');
  const token = await running.ctx.tokens.issue({ sub: admin.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
  return { api: createApiClient({ server: running.url, tokens: staticTokenProvider(token) }), token, server: running.url };
}

const liveCriterion = { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] } as const;

/** Uploads a new version of an asset the way the web app does. */
async function newVersion(web: { token: string; server: string }, assetId: string, content: string): Promise<void> {
  const call = async (path: string, body: unknown): Promise<any> => {
    const response = await fetch(`${web.server}${path}`, { method: 'POST', headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { result: any };
    if (response.status !== 200) throw new Error(JSON.stringify(answer));
    return answer.result;
  };
  const bytes = Buffer.from(content);
  const upload = await call('/asset-uploads', { assetId, assetFileId: null, size: bytes.length, partUrlsRequest: { urlRequests: [] } });
  const parts = await sendParts(upload, bytes);
  await call('/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
}

const folderOf = (state: AppState) => state.folders[0];
const syncedFiles = (state: AppState): number => folderOf(state)?.syncedFiles ?? -1;

describe('the app controller with the local library', () => {
  let app: HeadlessApp | undefined;
  /** The app's state once `check` holds (the app works in the background; there is nothing else to wait on). */
  const stateWhen = (check: (state: AppState) => boolean, what: string, timeoutMs = 25_000): Promise<AppState> => {
    let last: AppState | undefined;
    const probe = async (): Promise<AppState | undefined> => {
      last = await app?.controller.getState();
      return last !== undefined && check(last) ? last : undefined;
    };
    return until(what, probe, { timeoutMs, intervalMs: 50, context: () => JSON.stringify(last).slice(0, 4000) });
  };
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('signs in to the local library, syncs ~/Asset Sync, and uploads a file', async () => {
    const where = setup();
    app = await start(where);
    const state = await app.controller.getState();
    expect(state.account).toMatchObject({ kind: 'signed-in', local: true, email: 'admin@localhost' });
    expect(state.folders.map((folder) => folder.path)).toEqual([where.folder]);
    writeFileSync(join(where.folder, 'hello.txt'), 'hello');
    const done = await stateWhen((s) => syncedFiles(s) === 1 && folderOf(s)?.activity.kind === 'up-to-date', 'hello.txt synced');
    expect(done.overall).toBe('up-to-date');
    const web = await webApp(app);
    expect(await web.api.countAssets(liveCriterion)).toBe(1);
    const activity = await app.controller.listActivity({ limit: 10 });
    expect(activity).toContainEqual(expect.objectContaining({ relPath: 'hello.txt', kind: 'upload', status: 'done' }));
    web.api.close();
  });

  it('refuses a folder that would overlap another, adding or moving it in the service, and leaves nothing behind', async () => {
    const where = setup();
    app = await start(where);
    const design = join(where.base, 'Design');
    await expect(app.controller.addFolder({ path: design, remotePath: '/Design', publishLive: false })).rejects.toMatchObject({
      code: 'FOLDERS_OVERLAP',
      message: expect.stringContaining(`/Design in the service is already synced by ${where.folder}`),
    });
    expect(existsSync(design)).toBe(false);
    await expect(app.controller.addFolder({ path: join(where.folder, 'Brand'), remotePath: '/Brand', publishLive: false })).rejects.toMatchObject({ code: 'FOLDERS_OVERLAP' });

    const [library] = (await app.controller.getState()).folders;
    if (library === undefined) throw new Error('no default folder');
    await app.controller.updateFolder({ folderId: library.id, remotePath: '/Library', remap: 'leave' });
    await app.controller.addFolder({ path: design, remotePath: '/Design', publishLive: false });
    await expect(app.controller.updateFolder({ folderId: library.id, remotePath: '/Design/Old' })).rejects.toMatchObject({
      code: 'FOLDERS_OVERLAP',
      message: expect.stringContaining(`/Design/Old in the service is already synced by ${design}`),
    });
    // Its other settings still change.
    await app.controller.updateFolder({ folderId: library.id, publishLive: true });
    const folders = (await app.controller.getState()).folders.map((folder) => [folder.path, folder.remotePath, folder.publishLive]);
    expect(folders.sort()).toEqual([[where.folder, '/Library', true], [design, '/Design', false]].sort());
  });

  it('resolves conflicts made through the API each of the three ways', { timeout: 90_000 }, async () => {
    const where = setup();
    app = await start(where);
    const names = ['mine', 'theirs', 'both'];
    for (const name of names) writeFileSync(join(where.folder, `${name}.txt`), `${name}: base`);
    await stateWhen((s) => syncedFiles(s) === 3, 'three files synced');
    const web = await webApp(app);
    const assets = new Map<string, string>();
    for await (const page of web.api.scrollAssets({ criterion: liveCriterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: 100 })) {
      for (const { result } of page.results) assets.set(result.currentAssetFile?.filename ?? '', result.id);
    }
    // Both sides change each file while the app is paused, so it sees both changes at once.
    await app.controller.pause({ span: 'until-resumed' });
    for (const name of names) {
      await newVersion(web, assets.get(`${name}.txt`) ?? '', `${name}: theirs`);
      writeFileSync(join(where.folder, `${name}.txt`), `${name}: mine`);
    }
    await app.controller.resume({});
    const withConflicts = await stateWhen((s) => s.conflicts.length === 3, 'three conflicts');
    expect(withConflicts.overall).toBe('attention');
    expect(folderOf(withConflicts)?.attention.conflicts).toBe(3);
    const byName = new Map(withConflicts.conflicts.map((conflict) => [conflict.relPath, conflict]));
    for (const name of names) {
      const conflict = byName.get(`${name}.txt`);
      expect(conflict?.mine.size).toBe(`${name}: mine`.length);
      expect(conflict?.theirs.size).toBe(`${name}: theirs`.length);
      await app.controller.resolveConflict({ conflictId: conflict?.id ?? -1, keep: name as 'mine' | 'theirs' | 'both' });
    }
    const resolved = await stateWhen((s) => s.conflicts.length === 0 && s.notSyncedTotal === 0 && syncedFiles(s) === 4 && folderOf(s)?.activity.kind === 'up-to-date',
      'conflicts resolved and synced',
    );
    expect(resolved.overall, JSON.stringify({ n: resolved.notSynced, h: resolved.heldDeletions, f: resolved.folders })).toBe('up-to-date');
    const files = readdirSync(where.folder).filter((name) => !name.startsWith('.')).sort();
    expect(files.filter((name) => name.startsWith('mine'))).toEqual(['mine.txt']);
    expect(readFileSync(join(where.folder, 'mine.txt'), 'utf8')).toBe('mine: mine');
    expect(files.filter((name) => name.startsWith('theirs'))).toEqual(['theirs.txt']);
    expect(readFileSync(join(where.folder, 'theirs.txt'), 'utf8')).toBe('theirs: theirs');
    const both = files.filter((name) => name.startsWith('both'));
    expect(both).toHaveLength(2);
    expect(both.map((name) => readFileSync(join(where.folder, name), 'utf8')).sort()).toEqual(['both: mine', 'both: theirs']);
    // The service: mine is a new version of the same asset, both's copy an asset of its own.
    expect(await web.api.countAssets(liveCriterion)).toBe(4);
    const mineFiles = await web.api.listAssetFiles(assets.get('mine.txt') ?? '');
    expect(mineFiles).toHaveLength(3);
    web.api.close();
  });

  it('goes offline with a waiting count when the service stops, and catches up once when it is back', async () => {
    const where = setup();
    app = await start(where);
    writeFileSync(join(where.folder, 'before.txt'), 'before');
    await stateWhen((s) => syncedFiles(s) === 1, 'first file synced');
    await app.stopService();
    for (let i = 0; i < 5; i++) writeFileSync(join(where.folder, `offline-${i}.txt`), `offline ${i}`);
    const offline = await stateWhen((s) => folderOf(s)?.activity.kind === 'offline' && (folderOf(s)?.activity as { waiting: number }).waiting === 5,
      'offline with 5 waiting',
    );
    expect(offline.overall).toBe('offline');
    expect(offline.connection).toMatchObject({ kind: 'offline', error: { code: 'SERVICE_UNREACHABLE' } });
    await app.restartService();
    await app.controller.syncNow({});
    const back = await stateWhen((s) => syncedFiles(s) === 6 && s.connection.kind === 'online', 'caught up');
    expect(folderOf(back)?.activity.kind).not.toBe('offline');
    const web = await webApp(app);
    expect(await web.api.countAssets(liveCriterion)).toBe(6);
    web.api.close();
  });

  it('comes back online by itself when the service returns while the app sits idle (no sync now)', async () => {
    const where = setup();
    app = await start(where);
    writeFileSync(join(where.folder, 'before.txt'), 'before');
    await stateWhen((s) => syncedFiles(s) === 1, 'first file synced');
    await app.stopService();
    writeFileSync(join(where.folder, 'while-away.txt'), 'while away');
    await stateWhen((s) => s.connection.kind === 'offline', 'offline');
    await app.restartService();
    // No sync now: the app's own tries (the monitor's schedule, the remote poll) must find the service again.
    const back = await stateWhen((s) => s.connection.kind === 'online' && syncedFiles(s) === 2, 'back online and caught up', 45_000);
    expect(folderOf(back)?.activity.kind).not.toBe('offline');
  }, 90_000);

  it('pause stops transfers and resume restarts them', async () => {
    const where = setup();
    app = await start(where);
    writeFileSync(join(where.folder, 'first.txt'), 'first');
    const first = await stateWhen((s) => syncedFiles(s) === 1, 'first file synced');
    const folderId = folderOf(first)?.id ?? '';
    await app.controller.pause({ folderId, span: 'one-hour' });
    const paused = await app.controller.getState();
    expect(folderOf(paused)?.activity).toMatchObject({ kind: 'paused' });
    expect((folderOf(paused)?.activity as { until: string | null }).until).not.toBeNull();
    writeFileSync(join(where.folder, 'while-paused.txt'), 'later');
    await app.controller.syncNow({ folderId });
    // Passes run for other folders and finish; this one stays untouched while paused.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const web = await webApp(app);
    expect(await web.api.countAssets(liveCriterion)).toBe(1);
    expect(syncedFiles(await app.controller.getState())).toBe(1);
    await app.controller.resume({ folderId });
    await stateWhen((s) => syncedFiles(s) === 2 && folderOf(s)?.activity.kind === 'up-to-date', 'synced after resume');
    expect(await web.api.countAssets(liveCriterion)).toBe(2);
    web.api.close();
  });

  it('copies dropped files in as "a (2).png", never moving them', async () => {
    const where = setup();
    app = await start(where);
    const outside = tempDir('asset-sync-drop-');
    writeFileSync(join(outside, 'a.png'), 'dropped');
    writeFileSync(join(where.folder, 'a.png'), 'already here');
    const state = await stateWhen((s) => syncedFiles(s) === 1, 'a.png synced');
    const result = await app.controller.copyIn({ folderId: folderOf(state)?.id ?? '', relDir: '', items: [{ kind: 'path', path: join(outside, 'a.png') }] });
    expect(result).toEqual({ copied: 1, renamed: [{ asked: 'a.png', named: 'a (2).png' }] });
    expect(readFileSync(join(where.folder, 'a (2).png'), 'utf8')).toBe('dropped');
    expect(readFileSync(join(where.folder, 'a.png'), 'utf8')).toBe('already here');
    expect(existsSync(join(outside, 'a.png'))).toBe(true);
    expect(await app.controller.listActivity({ limit: 5 })).toContainEqual(expect.objectContaining({ kind: 'copy-in', relPath: 'a (2).png', status: 'done' }));
    await stateWhen((s) => syncedFiles(s) === 2, 'the copy synced');
  });

  it('keeps settings across a restart, and applies bandwidth caps', async () => {
    const where = setup();
    app = await start(where);
    const saved = await app.controller.updateSettings({ uploadBytesPerSecond: 5_000_000, publishLive: true, notifications: false });
    expect(saved).toMatchObject({ uploadBytesPerSecond: 5_000_000, publishLive: true, notifications: false });
    await expect(app.controller.updateSettings({ uploadBytesPerSecond: -1 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await app.close();
    app = await start(where);
    const state = await app.controller.getState();
    expect(state.settings).toMatchObject({ uploadBytesPerSecond: 5_000_000, publishLive: true, notifications: false });
    // The account came back too: the local library, without asking.
    expect(state.account).toMatchObject({ kind: 'signed-in', local: true });
  });

  it('keeps a broken settings file aside and says so in the state', async () => {
    const where = setup();
    app = await start(where);
    await app.controller.updateSettings({ publishLive: true });
    await app.close();
    writeFileSync(join(where.stateDir, 'config.json'), '{ "publishLive": tru');
    app = await start(where);
    const state = await app.controller.getState();
    expect(state.settings.publishLive).toBe(false);
    expect(state.problems).toEqual([expect.objectContaining({ code: 'SETTINGS_UNREADABLE' })]);
    const aside = readdirSync(where.stateDir).filter((name) => name.startsWith('config.json.broken-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(where.stateDir, aside[0] ?? ''), 'utf8')).toBe('{ "publishLive": tru');
    expect(state.problems?.[0]?.message).toContain(aside[0]);
  });
});

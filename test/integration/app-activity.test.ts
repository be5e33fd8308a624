/**
 * The app's activity against the real embedded service: it is kept in the state database, so a restart
 * on the same state directory shows what happened before; and every change the app makes to the disk
 * is an entry: a file the service binned and the app moved to the Trash, a file and a folder the
 * service moved followed here.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHeadlessApp, type HeadlessApp } from '../../src/main/headless/headless-app.js';
import { createApiClient, type ApiClient } from '../../src/main/api/index.js';
import { staticTokenProvider } from '../../src/main/api/api-client.js';
import { createFreedesktopTrash } from '../../src/main/local/index.js';
import { LOCAL_SUBDOMAIN } from '../../src/service/bootstrap.js';
import type { AppState } from '../../src/shared/bridge/app-state.js';
import { until } from '../support/until.js';
import { fakeBrowser } from '../support/fake-browser.js';
import { ADMIN_PASSWORD, startTestService } from '../support/test-service.js';
import { tempDir } from '../support/temp-dir.js';

interface Setup {
  base: string;
  folder: string;
  stateDir: string;
  dataDir: string;
}

function setup(): Setup {
  const base = tempDir('asset-sync-activity-');
  return { base, folder: join(base, 'Asset Sync'), stateDir: join(base, 'state'), dataDir: join(base, 'data') };
}

function start(where: Setup, deps: { openExternal?: (url: string) => Promise<boolean> } = {}): Promise<HeadlessApp> {
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
    deps: { trash: createFreedesktopTrash({ dataHome: join(where.base, 'trash-home') }), ...deps },
  });
}

async function webApi(app: HeadlessApp): Promise<ApiClient> {
  const running = app.service();
  if (running === undefined) throw new Error('no local library');
  const admin = running.ctx.accounts.userByEmail(running.ctx.config.adminEmail);
  if (admin === undefined) throw new Error('no admin');
  const token = await running.ctx.tokens.issue({ sub: admin.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
  return createApiClient({ server: running.url, tokens: staticTokenProvider(token) });
}

const liveCriterion = { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] } as const;
const syncedFiles = (state: AppState): number => state.folders[0]?.syncedFiles ?? -1;

describe('the app\'s activity', () => {
  let app: HeadlessApp | undefined;
  const stateWhen = (check: (state: AppState) => boolean, what: string): Promise<AppState> => {
    let last: AppState | undefined;
    const probe = async (): Promise<AppState | undefined> => {
      last = await app?.controller.getState();
      return last !== undefined && check(last) ? last : undefined;
    };
    return until(what, probe, { timeoutMs: 25_000, intervalMs: 50, context: () => JSON.stringify(last).slice(0, 4000) });
  };
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('is still there after a restart on the same state directory', async () => {
    const where = setup();
    app = await start(where);
    writeFileSync(join(where.folder, 'one.txt'), 'one');
    writeFileSync(join(where.folder, 'two.txt'), 'two');
    await stateWhen((s) => syncedFiles(s) === 2 && s.folders[0]?.activity.kind === 'up-to-date', 'two files synced');
    const before = await app.controller.listActivity({ limit: 10 });
    expect(before.map((entry) => entry.relPath).sort()).toEqual(['one.txt', 'two.txt']);
    await app.close();

    app = await start(where);
    await stateWhen((s) => s.folders.length === 1, 'the folder back');
    const after = await app.controller.listActivity({ limit: 10 });
    expect(after).toEqual(before);
    // New entries follow the kept ones.
    writeFileSync(join(where.folder, 'three.txt'), 'three');
    await stateWhen((s) => syncedFiles(s) === 3, 'three.txt synced');
    const next = await app.controller.listActivity({ limit: 10 });
    expect(next.map((entry) => entry.relPath)).toEqual(['three.txt', ...before.map((entry) => entry.relPath)]);
    expect(next[0]?.id).toBeGreaterThan(before[0]?.id ?? Infinity);
  });

  it('shows a file the service binned moved to the Trash, and keeps it across a restart', async () => {
    const where = setup();
    app = await start(where);
    writeFileSync(join(where.folder, 'old brief.txt'), 'binned in the web app');
    await stateWhen((s) => syncedFiles(s) === 1 && s.folders[0]?.activity.kind === 'up-to-date', 'old brief.txt synced');
    const api = await webApi(app);
    const ids: string[] = [];
    for await (const page of api.scrollAssets({ criterion: liveCriterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: 100 })) {
      for (const { result } of page.results) ids.push(result.id);
    }
    expect(ids).toHaveLength(1);
    await api.transitionLifecycle({ type: 'BY_IDS', assetIds: ids }, 'BINNED');
    api.close();
    await stateWhen((s) => syncedFiles(s) === 0 && !existsSync(join(where.folder, 'old brief.txt')), 'old brief.txt gone');
    const trashed = { relPath: 'old brief.txt', kind: 'trash', status: 'done' };
    await until('the Trash move in the activity', async () => ((await app?.controller.listActivity({ limit: 10 })) ?? []).some((entry) => entry.kind === 'trash') || undefined, { timeoutMs: 10_000, intervalMs: 50 });
    expect(await app.controller.listActivity({ limit: 10 })).toContainEqual(expect.objectContaining(trashed));
    expect(existsSync(join(where.base, 'trash-home', 'Trash', 'files', 'old brief.txt'))).toBe(true);
    await app.close();
    app = await start(where);
    expect(await app.controller.listActivity({ limit: 10 })).toContainEqual(expect.objectContaining(trashed));
  });

  it('shows a file and a folder the service moved, moved here, with where they were', async () => {
    const where = setup();
    app = await start(where);
    mkdirSync(join(where.folder, 'Drafts'));
    mkdirSync(join(where.folder, 'Shoots'));
    writeFileSync(join(where.folder, 'Drafts', 'logo.png'), 'a logo');
    writeFileSync(join(where.folder, 'Shoots', 'a.txt'), 'a shoot');
    await stateWhen((s) => syncedFiles(s) === 2 && s.folders[0]?.activity.kind === 'up-to-date', 'two files synced');
    const api = await webApi(app);
    const field = await api.foldersFieldId();
    const top = await api.listFieldOptionChildren(field, null);
    const option = (name: string): string => top.find((found) => found.value === name)?.id ?? '';
    const logos = (await api.createFieldOptions([{ batchItemId: 'l', fieldId: field, value: 'Logos', parentId: null }])).successes.l?.id ?? '';
    const ids: string[] = [];
    for await (const page of api.scrollAssets({ criterion: liveCriterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: 100 })) {
      for (const { result } of page.results) if (result.currentAssetFile?.filename === 'logo.png') ids.push(result.id);
    }
    await api.editMetadata({ type: 'BY_IDS', assetIds: ids }, [{ fieldId: field, type: 'BY_IDS', values: [logos], operation: 'REPLACE' }]);
    await api.changeFieldOption(option('Shoots'), { value: 'Shoots 2026' });
    api.close();
    await stateWhen(() => existsSync(join(where.folder, 'Logos', 'logo.png')) && existsSync(join(where.folder, 'Shoots 2026', 'a.txt')), 'both moved on disk');
    await until('the moves in the activity', async () => ((await app?.controller.listActivity({ limit: 10 })) ?? []).filter((entry) => entry.kind === 'move' || entry.kind === 'folder-move').length === 2 || undefined, { timeoutMs: 10_000, intervalMs: 50 });
    const moves = (await app.controller.listActivity({ limit: 10 })).filter((entry) => entry.kind === 'move' || entry.kind === 'folder-move');
    expect(moves.map(({ kind, relPath, from }) => ({ kind, relPath, from })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'folder-move', relPath: 'Shoots 2026', from: 'Shoots' },
      { kind: 'move', relPath: 'Logos/logo.png', from: 'Drafts/logo.png' },
    ]);
  });

  it('belongs to the state of one server and account: another one starts its own, and the old comes back', async () => {
    const where = setup();
    const browser = fakeBrowser({ email: 'admin@localhost', password: ADMIN_PASSWORD });
    app = await start(where, { openExternal: async (url) => (void browser.openUrl(url), true) });
    writeFileSync(join(where.folder, 'one.txt'), 'one');
    await stateWhen((s) => syncedFiles(s) === 1 && s.folders[0]?.activity.kind === 'up-to-date', 'one.txt synced');
    const local = await app.controller.listActivity({ limit: 10 });
    expect(local.map((entry) => entry.relPath)).toEqual(['one.txt']);

    const second = await startTestService();
    try {
      await app.controller.signOut();
      await app.controller.signIn({ server: second.url });
      await stateWhen((s) => s.account.kind === 'signed-in' && syncedFiles(s) === 1, 'one.txt synced to the second server');
      // The second server's state lists its own upload, and none of the local library's entries.
      const there = await app.controller.listActivity({ limit: 10 });
      expect(there.map((entry) => entry.relPath)).toEqual(['one.txt']);
      expect(there.map((entry) => entry.id)).not.toContain(local[0]?.id);

      await app.controller.signOut();
      await app.controller.useLocalLibrary();
      await stateWhen((s) => s.account.kind === 'signed-in' && s.account.local && s.folders.length === 1, 'the local library back');
      expect(await app.controller.listActivity({ limit: 10 })).toEqual(local);
    } finally {
      await second.dispose();
    }
  });
});

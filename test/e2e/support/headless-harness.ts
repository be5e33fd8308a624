/**
 * The real thing for the browser tests: the headless app (A's startHeadlessApp) with temp state,
 * config and folder, its embedded local service on 127.0.0.1 at a random port, Chromium on its UI, and
 * an API client on the service to check what arrived. `dispose()` closes all of it and removes the dirs.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startHeadlessApp, type HeadlessApp, type HeadlessAppOptions } from '../../../src/main/headless/headless-app.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../../src/main/api/index.js';
import type { LaunchedBrowser } from './launch-browser.js';
import { tempDir } from '../../support/temp-dir.js';

export interface HeadlessHarness {
  app: HeadlessApp;
  /** The synced folder a new user of the local library gets. */
  folder: string;
  stateDir: string;
  configDir: string;
  dataDir: string;
  /** What the harness's file manager was asked to open, in order (empty with `fileManager: false`). */
  opened: { path: string; reveal: boolean }[];
  /** Opens the UI (the secret URL sets the cookie, then the page redirects to `/`). */
  open(browser: LaunchedBrowser, view?: string): Promise<Page>;
  /** An API client on the embedded service, as its admin. */
  api(): Promise<ApiClient>;
  /**
   * A colleague's edit in the web app: a new version of an asset, straight through the API, made by the
   * admin (the app's own user in the local library) or by `as`, a member of the library made for it.
   */
  newVersion(assetId: string, content: string | Buffer, as?: { email: string; name: string }): Promise<void>;
  /** Closes the app and starts it again on the same dirs (settings, tokens and state survive). */
  restart(): Promise<void>;
  /** Stops the app as Ctrl+C does (its UI server and its local service), keeping every dir. */
  stop(): Promise<void>;
  /** Starts the app again after `stop()`, on the same dirs and with the same options (`options` added to them). */
  start(options?: Partial<HeadlessAppOptions>): Promise<void>;
  dispose(): Promise<void>;
}

export interface HarnessOptions extends Partial<HeadlessAppOptions> {
  /**
   * Give the app a file manager that records what it is asked to open (default true). False leaves the
   * app to find the system's, which the harness's environment (no display) does not have.
   */
  fileManager?: boolean;
}

export async function startHeadlessHarness({ fileManager = true, ...options }: HarnessOptions = {}): Promise<HeadlessHarness> {
  const root = tempDir('asset-sync-e2e-');
  const stateDir = join(root, 'state');
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const folder = join(root, 'Asset Sync');
  const opened: { path: string; reveal: boolean }[] = [];
  const openPath = async (path: string, { reveal }: { reveal: boolean }): Promise<void> => void opened.push({ path, reveal });
  const deps = fileManager ? { openPath, ...options.deps } : options.deps;
  const appOptions: HeadlessAppOptions = {
    stateDir,
    configDir,
    dataDir,
    folder,
    servicePort: 0,
    firstUiPort: 0,
    stableMs: 300,
    env: { ASSET_SYNC_ADMIN_PASSWORD: 'e2e-password-123' },
    ...options,
    ...(deps === undefined ? {} : { deps }),
  };
  let app = await startHeadlessApp(appOptions);
  const clients: ApiClient[] = [];
  const harness: HeadlessHarness = {
    get app() {
      return app;
    },
    folder,
    stateDir,
    configDir,
    dataDir,
    opened,
    async open(browser, view) {
      const page = await browser.newPage();
      await page.goto(app.newLink());
      if (view !== undefined) await page.evaluate((name) => (location.hash = `#/${name}`), view);
      return page;
    },
    async api() {
      const service = app.service();
      if (service === undefined) throw new Error('The embedded service is not running.');
      const admin = service.ctx.accounts.userByEmail(service.ctx.config.adminEmail);
      if (admin === undefined) throw new Error('The embedded service has no admin.');
      const token = await service.ctx.tokens.issue({ sub: admin.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
      const client = createApiClient({ server: service.url, tokens: staticTokenProvider(token), env: {}, jobPoll: { initialMs: 5, maxMs: 50 } });
      clients.push(client);
      return client;
    },
    async newVersion(assetId, content, as) {
      const service = app.service();
      if (service === undefined) throw new Error('The embedded service is not running.');
      const { accounts } = service.ctx;
      const admin = accounts.userByEmail(service.ctx.config.adminEmail);
      if (admin === undefined) throw new Error('The embedded service has no admin.');
      let author = admin;
      if (as !== undefined) {
        const account = accounts.bySubdomain(LOCAL_SUBDOMAIN);
        if (account === undefined) throw new Error('The embedded service has no local account.');
        author = accounts.userByEmail(as.email) ?? accounts.createUser(as.email, as.name, 'unused', service.ctx.nowIso());
        if (accounts.membership(account.id, author.id) === undefined) accounts.addMembership(account.id, author.id, 'member');
      }
      const token = await service.ctx.tokens.issue({ sub: author.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
      const post = async (path: string, body: unknown): Promise<any> => {
        const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      const created = await post('/asset-uploads', { assetId, assetFileId: null, size: bytes.length, partUrlsRequest: { urlRequests: [] } });
      const parts: { partNumber: number; eTag: string }[] = [];
      for (const part of created.result.parts as { url: string; partNumber: number; byteRange: { start: number; end: number } }[]) {
        const response = await fetch(part.url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes.subarray(part.byteRange.start, part.byteRange.end)) });
        if (response.status !== 200) throw new Error(`part ${part.partNumber}: ${response.status} ${await response.text()}`);
        parts.push({ partNumber: part.partNumber, eTag: response.headers.get('etag') ?? '' });
      }
      await post('/asset-upload-completions', { assetId, uploadId: created.result.uploadId, parts });
    },
    async restart() {
      await harness.stop();
      await harness.start();
    },
    async stop() {
      await app.close();
      await app.stopService();
    },
    async start(options = {}) {
      app = await startHeadlessApp({ ...appOptions, autoLocalLibrary: true, ...options });
    },
    async dispose() {
      for (const client of clients) client.close();
      await app.close();
      await app.stopService();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The service's assets as `/folder/path/name` with their checksum and lifecycle state. */
export async function remoteFiles(api: ApiClient): Promise<{ path: string; id: string; checksum: string | undefined; state: string }[]> {
  const fieldId = await api.foldersFieldId();
  const paths = new Map<string, string>();
  const folderPath = async (optionId: string): Promise<string> => {
    const known = paths.get(optionId);
    if (known !== undefined) return known;
    const names: string[] = [];
    for (let option = await api.getFieldOption(optionId) as { value: string; parent: unknown } | null; option !== null; option = option.parent as typeof option) names.unshift(option.value);
    const path = `/${names.join('/')}`;
    paths.set(optionId, path);
    return path;
  };
  const result: { path: string; id: string; checksum: string | undefined; state: string }[] = [];
  const criterion = { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] } as const;
  for await (const page of api.scrollAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: 500 })) {
    for (const { result: asset } of page.results) {
      const folders = asset.metadata.values[fieldId] ?? [];
      const name = asset.currentAssetFile?.filename ?? '(no file)';
      const base = { id: asset.id, checksum: asset.currentAssetFile?.checksum, state: asset.lifecycleStatus.state };
      if (folders.length === 0) result.push({ ...base, path: `/${name}` });
      for (const optionId of folders) result.push({ ...base, path: `${await folderPath(optionId)}/${name}` });
    }
  }
  return result.sort((a, b) => a.path.localeCompare(b.path));
}

/** The paths of the service's assets (`/folder/name`), sorted: what arrived, for a test to compare. */
export async function remotePaths(harness: HeadlessHarness): Promise<string[]> {
  return (await remoteFiles(await harness.api())).map((file) => file.path);
}

/**
 * An engine wired to a real local service on 127.0.0.1 and a real temp folder, for integration tests:
 * the same createEngine the CLI uses, with a short stability window so tests do not wait long.
 * `assets()` lists what the service holds (STAGED and LIVE) with their folder paths, to check by API.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createApiClient, staticTokenProvider, type ApiClient, type AssetApi } from '../../src/main/api/index.js';
import { NodeFileSystem, createFreedesktopTrash, systemClock, type FileSystem } from '../../src/main/local/index.js';
import { createEngine, type Engine, type EngineDeps, type OnceResult } from '../../src/main/engine/index.js';
import type { StateDb } from '../../src/main/db/open-state-db.js';
import { openStateFile, stateFile } from '../../src/main/store/state-dir.js';
import { openStateDb } from '../../src/main/db/open-state-db.js';
import { afterAll, beforeAll } from 'vitest';
import { startTestService, type TestService } from './test-service.js';
import type { FieldOption } from '../../src/shared/api/resources.js';
import type { RemoteFeedOptions } from '../../src/main/remote/remote-feed.js';
import { tempDir } from './temp-dir.js';

export interface SyncHarness {
  folder: string;
  stateDir: string;
  /** The freedesktop trash the engine's local deletions go to (inside stateDir, never the user's). */
  trashDir: string;
  api: ApiClient;
  engine: Engine;
  /** The engine's state database, for tests that look at (or change) rows no status query shows. */
  db: StateDb;
  once(): Promise<OnceResult>;
  /** Every non-binned asset as `{ path: '/Folder/name', id, checksum, state }`, sorted by path. */
  assets(): Promise<RemoteAsset[]>;
  /** Closes the engine (keeps the folders) and builds a new one on the same state dir. */
  restart(): Promise<SyncHarness>;
  dispose(): Promise<void>;
}

export interface RemoteAsset {
  path: string;
  id: string;
  checksum: string | undefined;
  state: string;
  size: number | undefined;
}

export interface SyncHarnessOptions {
  remotePath?: string;
  folder?: string;
  stateDir?: string;
  publishLive?: boolean;
  /** Wraps the API the engine uses (fault injection); `api` on the harness stays the plain client. */
  wrapApi?: (api: ApiClient) => AssetApi;
  /** The remote feed's schedule (poll interval, full listing interval, overlap). */
  remote?: RemoteFeedOptions;
  /** Progress listeners, as the CLI passes them. */
  progress?: Pick<EngineDeps, 'onBytes' | 'onTransfer'>;
  /** How long a file must stay unchanged (default 40 ms, so tests do not wait long). */
  stableMs?: number;
  /** The engine's file system (default: the real disk), e.g. one that injects errors. */
  fs?: FileSystem;
  /** Told every statement the engine's state database runs (per-file cost budgets). */
  onStatement?: (sql: string) => void;
}

export async function startSyncHarness(service: TestService, options: SyncHarnessOptions = {}): Promise<SyncHarness> {
  const folder = options.folder ?? tempDir('asset-sync-root-');
  const stateDir = options.stateDir ?? tempDir('asset-sync-state-');
  const api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
  const trashHome = join(stateDir, 'trash-home');
  const db = options.onStatement === undefined ? openStateFile(stateDir) : openCountedStateFile(stateDir, options.onStatement);
  const engine = createEngine(
    { stateDir, server: service.url, stableMs: options.stableMs ?? 40, ...(options.remote === undefined ? {} : { remote: options.remote }) },
    { api: options.wrapApi?.(api) ?? api, fs: options.fs ?? new NodeFileSystem(), clock: systemClock, trash: createFreedesktopTrash({ dataHome: trashHome }), openDb: () => db, ...options.progress },
  );
  await engine.addRoot({ path: folder, remotePath: options.remotePath ?? '/', publishLive: options.publishLive ?? false });
  const harness: SyncHarness = {
    folder,
    stateDir,
    trashDir: join(trashHome, 'Trash'),
    api,
    engine,
    db,
    once: () => engine.syncOnce(),
    assets: () => listAssets(api),
    async restart() {
      // The folder keeps the place the state gives it now (a remap may have changed it since the start).
      // (A harness restarted before has its engine closed: it keeps the place it was given.)
      const remotePath = db.open ? (engine.roots().find((row) => row.path === folder)?.remote_path ?? options.remotePath) : options.remotePath;
      engine.close();
      api.close();
      return startSyncHarness(service, { ...options, folder, stateDir, ...(remotePath === undefined ? {} : { remotePath }) });
    },
    async dispose() {
      engine.close();
      api.close();
      rmSync(folder, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
  return harness;
}

async function listAssets(api: ApiClient): Promise<RemoteAsset[]> {
  const fieldId = await api.foldersFieldId();
  const paths = new Map<string, string>();
  const folderPath = async (optionId: string): Promise<string> => {
    const known = paths.get(optionId);
    if (known !== undefined) return known;
    const names: string[] = [];
    for (let option: FieldOption | null = await api.getFieldOption(optionId); option; option = option.parent) names.unshift(option.value);
    const path = `/${names.join('/')}`;
    paths.set(optionId, path);
    return path;
  };
  const result: RemoteAsset[] = [];
  const criterion = { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] };
  for await (const page of api.scrollAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: 500 })) {
    for (const { result: asset } of page.results) {
      const folders = asset.metadata.values[fieldId] ?? [];
      const name = asset.currentAssetFile?.filename ?? '(no file)';
      const base = { id: asset.id, checksum: asset.currentAssetFile?.checksum, state: asset.lifecycleStatus.state, size: asset.currentAssetFile?.size };
      if (folders.length === 0) result.push({ ...base, path: `/${name}` });
      for (const optionId of folders) result.push({ ...base, path: `${await folderPath(optionId)}/${name}` });
    }
  }
  return result.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A service for one describe block and the harnesses its tests start (pushed onto `harnesses`), all
 * stopped after the block. Call inside describe(); `service` is there once beforeAll has run.
 */
export function serviceForBlock(): { readonly service: TestService; readonly harnesses: SyncHarness[] } {
  let service: TestService | undefined;
  const harnesses: SyncHarness[] = [];
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    for (const harness of harnesses) await harness.dispose();
    await service?.dispose();
  });
  return {
    get service(): TestService {
      if (service === undefined) throw new Error('the block\'s service starts in beforeAll: read it inside a test');
      return service;
    },
    harnesses,
  };
}

function openCountedStateFile(stateDir: string, onStatement: (sql: string) => void): StateDb {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return openStateDb(stateFile(stateDir), { onStatement });
}

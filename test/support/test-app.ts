/**
 * The headless app as integration tests start it: its own temp state, data and folder, the embedded
 * service on a free port of 127.0.0.1, no UI build, short stability and publish times, and a Trash in
 * the temp directory. The test closes what it started.
 */
import { join } from 'node:path';
import { startHeadlessApp, type HeadlessApp, type HeadlessAppOptions } from '../../src/main/headless/headless-app.js';
import { createFreedesktopTrash } from '../../src/main/local/index.js';
import { tempDir } from './temp-dir.js';

export interface AppDirs {
  base: string;
  folder: string;
  stateDir: string;
  dataDir: string;
}

/** Fresh directories for one app (a restart reuses them). */
export function appDirs(prefix = 'asset-sync-app-'): AppDirs {
  const base = tempDir(prefix);
  return { base, folder: join(base, 'Asset Sync'), stateDir: join(base, 'state'), dataDir: join(base, 'data') };
}

/** Starts the app on `where`; `options` add to (or replace) the test defaults, `deps` beside the Trash. */
export function startTestApp(where: AppDirs, options: Partial<HeadlessAppOptions> = {}): Promise<HeadlessApp> {
  return startHeadlessApp({
    stateDir: where.stateDir,
    dataDir: where.dataDir,
    folder: where.folder,
    servicePort: 0,
    firstUiPort: 0,
    stableMs: 50,
    publishMs: 20,
    remote: { pollIntervalMs: 200, overlapMs: 1000 },
    staticDir: join(where.base, 'no-ui'),
    env: { ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' },
    ...options,
    deps: { trash: createFreedesktopTrash({ dataHome: join(where.base, 'trash-home') }), ...options.deps },
  });
}

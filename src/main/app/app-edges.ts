/**
 * The edges the app runs on, with the defaults filled in once: clock, file system, trash, token store,
 * the environment and the host. A composition root passes in what differs (Electron's trash and
 * safeStorage, a test's manual clock); every part of the app reads them from here. It builds no engine
 * and opens no file.
 */
import { fileTokenStore, type TokenStore } from '../auth/index.js';
import { NodeFileSystem, createFreedesktopTrash, systemClock, type Clock, type FileSystem, type Trash } from '../local/index.js';
import type { HostInfo } from '../../shared/bridge/app-state.js';
import type { AppControllerConfig, AppControllerDeps } from './app-types.js';

export interface AppEdges {
  readonly config: AppControllerConfig;
  readonly deps: AppControllerDeps;
  readonly clock: Clock;
  readonly fs: FileSystem;
  readonly env: Record<string, string | undefined>;
  readonly trash: Trash;
  readonly tokenStore: TokenStore;
  readonly host: HostInfo;
  /** Least time between two published states. */
  readonly publishMs: number;
}

const platformOf = (value: NodeJS.Platform): HostInfo['platform'] => (value === 'darwin' || value === 'win32' || value === 'linux' ? value : 'other');

export function resolveEdges(config: AppControllerConfig, deps: AppControllerDeps): AppEdges {
  const env = config.env ?? process.env;
  return {
    config,
    deps,
    clock: deps.clock ?? systemClock,
    fs: deps.fs ?? new NodeFileSystem(),
    env,
    trash: deps.trash ?? createFreedesktopTrash({ env }),
    tokenStore: deps.tokenStore ?? fileTokenStore(config.stateDir),
    host: { platform: platformOf(process.platform), ...config.host, canOpenPaths: deps.openPath !== undefined },
    publishMs: config.publishMs ?? 250,
  };
}

/**
 * Builds the one AppState the windows show, from its parts: the engine's status (the state store's
 * queries, through folder-view.ts; the state directory read once when no session is open), what only
 * the running app knows (pauses, passes and transfers, connectivity, the account) and the settings.
 * Each state gets the next revision, and what is new in it is announced before it goes out.
 * Must never: change what it reads, or write SQL (the store answers).
 */
import type { Clock } from '../local/index.js';
import type { RootStatus } from '../store/read-status.js';
import { readStateDir } from '../store/state-dir.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AccountState, AppState, BridgeErrorData, HostInfo } from '../../shared/bridge/app-state.js';
import type { ConflictSides } from './conflict-sides.js';
import type { EngineSession } from './engine-session.js';
import { conflictViews, folderViews, heldDeletionViews, notSyncedViews, overallState } from './folder-view.js';
import type { OpenedSettings } from './opened-settings.js';
import type { PauseState } from './pause-state.js';
import type { QuickDownloads } from './quick-downloads.js';
import { StateNews } from './state-news.js';
import type { TransferTracker } from './transfer-tracker.js';

/** Where the app is in its life, beyond the session: still starting, and the problems it has itself. */
export interface AppLifecycle {
  starting: boolean;
  problems: BridgeErrorData[];
}

export interface AppStateParts {
  stateDir: string;
  clock: Clock;
  host: HostInfo;
  lifecycle: AppLifecycle;
  session: () => EngineSession | undefined;
  account: () => AccountState;
  /** The service of the account whose session is opening (app-session.ts), until it is open. */
  restoringService: () => string | undefined;
  pauses: PauseState;
  transfers: TransferTracker;
  settings: OpenedSettings;
  quick: QuickDownloads;
  /** Who changed each conflict's versions, and their thumbnails. */
  conflictSides: ConflictSides;
  /** Where the news of a state goes (before the state itself). */
  emit: (event: AppEvent) => void;
}

/** Not-synced items listed in one state; the total says how many there are. */
const NOT_SYNCED_LISTED = 1000;

export class AppStateProjection {
  private revision = 0;
  private readonly news = new StateNews();

  constructor(private readonly parts: AppStateParts) {}

  build(): AppState {
    const { parts } = this;
    const session = parts.session();
    const account = parts.account();
    const connection = session?.connectivity.status() ?? { online: true, since: null, nextTryAt: null, error: null };
    const { roots, folders } = folderViews(
      this.statuses(session),
      (rootId) => ({
        paused: parts.pauses.folderView(rootId),
        passedOnce: parts.transfers.hasPassed(rootId),
        progress: parts.transfers.progressView(rootId),
        lastSyncedAt: parts.transfers.lastSyncedAt(rootId),
      }),
      account,
      { online: connection.online, nextTryAt: connection.nextTryAt },
    );
    const notSynced = notSyncedViews(roots);
    const conflicts = session === undefined ? [] : conflictViews(session.engine.store, (conflict) => parts.conflictSides.view(conflict));
    const heldDeletions = session === undefined ? [] : heldDeletionViews(session.engine.store, roots);
    const base = {
      account,
      folders,
      connection:
        connection.online || session === undefined
          ? ({ kind: 'online' } as const)
          : {
              kind: 'offline' as const,
              server: session.server,
              since: connection.since ?? new Date(parts.clock.now()).toISOString(),
              nextTryAt: connection.nextTryAt,
              error: { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: `${session.server} cannot be reached (${connection.error ?? 'no answer'}); files wait and sync when it is back.` },
            },
      paused: parts.pauses.globalView(),
    };
    const state: AppState = {
      revision: ++this.revision,
      overall: overallState(base, parts.lifecycle.starting),
      ...base,
      conflicts,
      notSynced: notSynced.slice(0, NOT_SYNCED_LISTED),
      notSyncedTotal: notSynced.length,
      heldDeletions,
      settings: parts.settings.view(),
      quickDownload: { folder: parts.settings.downloadFolder(), recent: parts.settings.isOpen ? parts.settings.read().recentQuickDownloads : [], presets: parts.quick.presets() },
      host: parts.host,
      problems: parts.lifecycle.problems,
    };
    this.news.announce(state, parts.emit);
    return state;
  }

  /**
   * The engine's status of every folder: the session's store, else the state directory's, if it has one
   * yet; while a session opens, only when that state is its account's (the last known state of its
   * folders, shown as still being checked until the engine has passed over them).
   */
  private statuses(session: EngineSession | undefined): RootStatus[] {
    if (session !== undefined) return session.engine.store.status();
    return readStateDir(this.parts.stateDir, (store) => store.status(), this.parts.restoringService()) ?? [];
  }
}

/**
 * The app behind the window: wires one controller out of its parts and implements the bridge contract
 * in-process; the loopback control server (src/main/control/) and Electron's IPC (src/main/desktop/)
 * only carry it. The parts, each with one job:
 * - app-session.ts: who the app syncs as, sign-in and sign-out, the one engine session (engine-session.ts);
 * - app-state-projection.ts: the AppState, from the engine's status and what only the running app knows;
 * - state-publisher.ts: states and events to the subscribers, at most one state every `publishMs`;
 * - transfer-tracker.ts, pause-state.ts, opened-settings.ts: the app's own running state;
 * - folder-commands.ts, copy-commands.ts, settings-command.ts: the bridge commands.
 * Only wiring lives here. It never imports Electron nor the service: the composition root passes in
 * what differs (trash, opening paths and URLs, tokens, the embedded local library).
 */
import { join } from 'node:path';
import { AppError } from './app-error.js';
import { ActivityLog } from './activity-log.js';
import { resolveEdges } from './app-edges.js';
import { AppSession } from './app-session.js';
import { AppStateProjection, type AppLifecycle } from './app-state-projection.js';
import type { AppController, AppControllerConfig, AppControllerDeps } from './app-types.js';
import { ConflictSides } from './conflict-sides.js';
import { copyCommands } from './copy-commands.js';
import { rootOf } from './session-root.js';
import { folderCommands } from './folder-commands.js';
import { OpenedSettings } from './opened-settings.js';
import { PauseState } from './pause-state.js';
import { QuickDownloads } from './quick-downloads.js';
import { updateSettingsCommand } from './settings-command.js';
import { StatePublisher } from './state-publisher.js';
import { TransferTracker } from './transfer-tracker.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';

export function createAppController(config: AppControllerConfig, deps: AppControllerDeps = {}): AppController {
  const edges = resolveEdges(config, deps);
  const { clock } = edges;
  const lifecycle: AppLifecycle = { starting: true, problems: [] };
  const settings = new OpenedSettings({ configDir: config.configDir, clock, downloadsDir: config.downloadsDir });

  // The parts refer to each other through these closures; none is called before all exist.
  const publisher = new StatePublisher({ clock, publishMs: edges.publishMs, build: () => projection.build() });
  const changed = (): void => {
    publisher.changed();
  };
  const activity = new ActivityLog({
    now: () => clock.now(),
    setTimer: (ms, callback) => clock.setTimer(ms, callback),
    onKeepError: (error) => edges.deps.log?.({ level: 'warn', message: `the activity could not be kept: ${toBridgeError(error).message}` }),
    onChange: (entry) => publisher.emit({ type: 'activity', entry }),
  });
  const openPath = deps.openPath;
  const quick = new QuickDownloads({
    api: () => session.require().api,
    folder: () => settings.downloadFolder(),
    recent: () => settings.read().recentQuickDownloads,
    remember: (recent) => settings.store().update({ recentQuickDownloads: recent }),
    ...(openPath === undefined ? {} : { reveal: (path: string) => openPath(path, { reveal: true }) }),
    now: () => clock.now(),
    onDownload: (download) => publisher.emit({ type: 'quick-download', download }),
    changed,
  });
  const pauses: PauseState = new PauseState({
    clock,
    runner: () => session.current?.runner,
    checkFolder: (folderId) => {
      const current = session.current;
      if (current !== undefined) rootOf(current, folderId);
    },
    changed,
  });
  const transfers = new TransferTracker({ clock, activity, session: () => session.current, changed });
  const session: AppSession = new AppSession({ edges, settings, lifecycle, pauses, transfers, activity, quick, publisher });
  const conflictSides = new ConflictSides({ session: () => session.current, fs: edges.fs, clock, changed, openPath, versionsDir: join(config.stateDir, 'versions') });
  const projection = new AppStateProjection({
    stateDir: config.stateDir,
    clock,
    host: edges.host,
    lifecycle,
    session: () => session.current,
    account: () => session.account,
    restoringService: () => session.restoringService,
    pauses,
    transfers,
    settings,
    quick,
    conflictSides,
    emit: (event) => {
      publisher.emit(event);
    },
  });
  const folders = folderCommands({ edges, session, pauses, activity, changed });

  const controller: AppController = {
    get settingsPath() {
      return settings.path;
    },

    get account() {
      return session.account;
    },

    async start() {
      const store = settings.open();
      if (store.problem !== null) lifecycle.problems = [store.problem];
      const stored = store.read();
      try {
        await session.restore(stored);
      } catch (error) {
        lifecycle.problems = [...lifecycle.problems, toBridgeError(error)];
      }
      lifecycle.starting = false;
      changed();
    },

    async close() {
      if (publisher.closed) return;
      session.abortSignIn();
      quick.close();
      pauses.cancelTimers();
      await session.closeSession();
      publisher.close();
      await deps.localLibrary?.stop();
    },

    async getState() {
      return projection.build();
    },

    async listActivity(query) {
      if (!Number.isFinite(query.limit) || query.limit < 0) throw new AppError('INVALID_REQUEST', 'limit must be a number from 0 to 5,000.');
      return activity.list(query);
    },

    ...folders,
    conflictPreview: (request) => conflictSides.preview(request.conflictId, request.side),
    async openConflictVersion(request) {
      if (!Number.isInteger(request.conflictId) || !['mine', 'theirs'].includes(request.side)) throw new AppError('INVALID_REQUEST', 'Name a conflict by its id, and side "mine" or "theirs".');
      await conflictSides.open(request.conflictId, request.side);
    },
    ...copyCommands({ session, activity, changed }),

    async pause(request) {
      pauses.pause(request);
    },

    async resume(request) {
      pauses.resume(request.folderId);
    },

    signIn: (request) => session.signIn(request),
    useLocalLibrary: () => session.useLocalLibrary((request) => controller.addFolder(request)),
    signOut: () => session.signOut(),
    updateSettings: updateSettingsCommand({ settings, session, changed }),

    searchAssets: (request) => quick.search(request),
    listPresets: () => quick.refreshPresets(),
    quickDownload: (request) => quick.download(request),
    revealDownload: (request) => quick.reveal(request),

    subscribe: (listener) => publisher.subscribe(listener),
  };

  return controller;
}

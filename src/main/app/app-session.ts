/**
 * Who the app syncs as, and the one session that goes with it: restoring the account at start, sign-in
 * to a server (loopback OAuth in the browser), the built-in local library, sign-out, and noticing when a
 * server asks to sign in again. Opening a session closes the one before, so at most one engine runs and
 * it belongs to the account the state shows. It holds no pauses nor transfers (pause-state.ts and
 * transfer-tracker.ts do) and reads no table.
 */
import type { ApiClient, TokenProvider } from '../api/index.js';
import { createTokenProvider, login, logout } from '../auth/index.js';
import type { SignInRequest } from '../../shared/bridge/app-bridge.js';
import type { AccountState } from '../../shared/bridge/app-state.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { AppEdges } from './app-edges.js';
import { AppError } from './app-error.js';
import type { AppLifecycle } from './app-state-projection.js';
import type { EngineSession, EngineSessionListeners, SessionIdentity } from './engine-session.js';
import { loadOnce } from '../../shared/load-once.js';
import { LOCAL_SERVICE } from '../store/state-owner.js';
import type { OpenedSettings } from './opened-settings.js';
import type { PauseState } from './pause-state.js';
import type { QuickDownloads } from './quick-downloads.js';
import type { StoredSettings } from './settings-store.js';
import type { StatePublisher } from './state-publisher.js';
import type { ActivityLog } from './activity-log.js';
import type { TransferTracker } from './transfer-tracker.js';

/**
 * The engine and its API client: loaded when a session opens, so the window can show before they load;
 * what came in while they loaded (the window's requests) is answered before the session opens.
 */
const loadEngineSession = loadOnce(async () => {
  const module = await import('./engine-session.js');
  await new Promise<void>((resolve) => setImmediate(resolve));
  return module;
});

export interface AppSessionParts {
  edges: AppEdges;
  settings: OpenedSettings;
  lifecycle: AppLifecycle;
  pauses: PauseState;
  transfers: TransferTracker;
  /** The activity log, kept in the state database of the session now. */
  activity: ActivityLog;
  quick: QuickDownloads;
  publisher: StatePublisher;
}

export class AppSession {
  private session: EngineSession | undefined;
  private accountNow: AccountState = { kind: 'none' };
  private signInAttempt: AbortController | undefined;

  constructor(private readonly parts: AppSessionParts) {}

  /** The session now, if any. */
  get current(): EngineSession | undefined {
    return this.session;
  }

  get account(): AccountState {
    return this.accountNow;
  }

  /** The session now; NOT_SIGNED_IN without one. */
  require(): EngineSession {
    if (this.session === undefined) throw new AppError('NOT_SIGNED_IN', 'Sign in (or use the built-in local library) first.');
    return this.session;
  }

  /**
   * At start: signs in again as the stored account (or the local library, when the settings say so).
   * Until the session is open, the account is the one the settings name, with no user yet (as when its
   * server cannot be reached), so the window shows that account's folders from the start.
   */
  async restore(stored: StoredSettings): Promise<void> {
    const local = stored.account?.kind === 'local' || (stored.account === null && stored.startWithLocalLibrary && this.parts.edges.deps.localLibrary !== undefined);
    const server = stored.account?.kind === 'remote' ? stored.account.server : undefined;
    if (!local && server === undefined) return;
    this.accountNow = { kind: 'signed-in', server: server ?? '', email: '', name: '', local };
    try {
      await (server === undefined ? this.startLocal() : this.startRemote(server));
    } catch (error) {
      if (this.session === undefined) this.accountNow = { kind: 'none' };
      throw error;
    }
  }

  /** The service whose state the account of the session to come owns (state-owner.ts), until it is open. */
  get restoringService(): string | undefined {
    if (this.session !== undefined || this.accountNow.kind !== 'signed-in') return undefined;
    return this.accountNow.local ? LOCAL_SERVICE : this.accountNow.server;
  }

  async signIn(request: SignInRequest): Promise<{ authorizeUrl: string }> {
    const { edges, lifecycle } = this.parts;
    const server = typeof request.server === 'string' ? request.server.trim().replace(/\/+$/, '') : '';
    if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) throw new AppError('INVALID_REQUEST', `The server address must be an http(s) URL, got "${request.server}".`);
    this.signInAttempt?.abort();
    const attempt = new AbortController();
    this.signInAttempt = attempt;
    const previous = this.accountNow;
    return new Promise<{ authorizeUrl: string }>((resolve, reject) => {
      let opened = false;
      login({
        server,
        stateDir: edges.config.stateDir,
        store: edges.tokenStore,
        env: edges.env,
        signal: attempt.signal,
        openUrl: async (url) => {
          this.accountNow = { kind: 'signing-in', server, authorizeUrl: url };
          this.changed();
          if (edges.deps.openExternal !== undefined) await edges.deps.openExternal(url);
          opened = true;
          resolve({ authorizeUrl: url });
        },
      })
        .then(async () => {
          if (attempt.signal.aborted) return;
          this.parts.settings.store().update({ account: { kind: 'remote', server } });
          await this.startRemote(server);
        })
        .catch((error: unknown) => {
          if (this.signInAttempt === attempt) this.accountNow = previous.kind === 'signing-in' ? { kind: 'none' } : previous;
          if (!opened) reject(error instanceof Error ? error : new AppError('INVALID_REQUEST', String(error)));
          else if (!attempt.signal.aborted) {
            lifecycle.problems = [
              ...lifecycle.problems.filter((problem) => problem.code !== 'SIGN_IN_FAILED'),
              { name: 'AppError', code: 'SIGN_IN_FAILED', message: `Sign-in to ${server} did not finish: ${toBridgeError(error).message}` },
            ];
          }
          this.changed();
        });
    });
  }

  /** Syncs with the built-in local library; a first use gets the default folder through `addFolder`. */
  async useLocalLibrary(addFolder: (request: { path: string; remotePath: string; publishLive: boolean }) => Promise<void>): Promise<void> {
    const { config } = this.parts.edges;
    this.signInAttempt?.abort();
    await this.startLocal();
    this.parts.settings.store().update({ account: { kind: 'local' } });
    const current = this.require();
    if (current.engine.roots().length === 0 && config.defaultFolder !== undefined) {
      await addFolder({ path: config.defaultFolder, remotePath: '/', publishLive: this.parts.settings.read().publishLive });
    }
    this.changed();
  }

  async signOut(): Promise<void> {
    const { edges } = this.parts;
    this.signInAttempt?.abort();
    const wasLocal = this.session?.local === true;
    await this.closeSession();
    if (wasLocal) await edges.deps.localLibrary?.stop();
    else await logout({ stateDir: edges.config.stateDir, store: edges.tokenStore, env: edges.env });
    this.parts.settings.store().update({ account: null });
    this.accountNow = { kind: 'none' };
    this.changed();
  }

  /** The app closes: a sign-in under way stops. */
  abortSignIn(): void {
    this.signInAttempt?.abort();
  }

  /** Ends the session now, if any, once its pass has ended and the engine closed. */
  async closeSession(): Promise<void> {
    const current = this.session;
    if (current === undefined) return;
    this.session = undefined;
    this.parts.quick.clearPresets();
    const { closeEngineSession } = await loadEngineSession();
    await closeEngineSession(current, () => this.parts.activity.detach());
    this.parts.transfers.sessionEnded();
  }

  private changed(): void {
    this.parts.publisher.changed();
  }

  private async open(server: string, local: boolean, tokens: TokenProvider, identify: (api: ApiClient) => Promise<SessionIdentity>): Promise<EngineSession> {
    const { transfers } = this.parts;
    const { openEngineSession } = await loadEngineSession();
    const listeners: EngineSessionListeners = { onBytes: transfers.onBytes, onTransfer: transfers.onTransfer, onReport: transfers.onReport, changed: () => this.changed() };
    return openEngineSession(this.parts.edges, listeners, { server, local, tokens: this.watchSignIn(tokens, server), identify, settings: this.parts.settings.read() });
  }

  private begin(next: EngineSession): void {
    this.session = next;
    this.parts.activity.attach(next.engine.store);
    this.parts.pauses.applyTo(next.runner);
    next.runner.start();
    // The presets once per session, for the tray's quick download menu; the window asks again itself.
    void this.parts.quick.refreshPresets().catch(() => undefined);
    this.changed();
  }

  private async startLocal(): Promise<void> {
    const library = this.parts.edges.deps.localLibrary;
    if (library === undefined) throw new AppError('NO_LOCAL_LIBRARY', 'This build has no built-in local library; sign in to a server instead.');
    const local = await library.start();
    await this.closeSession();
    const { id, email, name } = local.user;
    // The local library is known by name, not by its port: its state is found again whatever port it has.
    const next = await this.open(local.server, true, local.tokens, async () => ({ user: { email, name }, owner: { service: LOCAL_SERVICE, userId: id, server: local.server } }));
    this.accountNow = { kind: 'signed-in', server: local.server, email, name, local: true };
    this.begin(next);
  }

  private async startRemote(server: string): Promise<void> {
    const { edges, settings } = this.parts;
    const tokens = (edges.deps.tokenProvider ?? ((stateDir: string) => createTokenProvider({ stateDir, env: edges.env, store: edges.tokenStore })))(edges.config.stateDir);
    await this.closeSession();
    const stored = settings.read().account;
    const knownUser = stored?.kind === 'remote' && stored.server === server ? (stored.userId ?? null) : null;
    const next = await this.open(server, false, tokens, async (api) => {
      try {
        const me = (await api.currentUser()).result;
        const user = { email: me.email, name: me.name ?? me.email };
        this.accountNow = { kind: 'signed-in', server, ...user, local: false };
        if (knownUser !== me.id) settings.store().update({ account: { kind: 'remote', server, userId: me.id } });
        return { user, owner: { service: server, userId: me.id, server } };
      } catch (error) {
        // Unreachable or signed out: the state of the user who synced with this server last.
        const data = toBridgeError(error);
        this.accountNow = data.code === 'NOT_SIGNED_IN' ? { kind: 'signed-out', server, reason: data } : { kind: 'signed-in', server, email: '', name: '', local: false };
        return { user: { email: '', name: '' }, owner: { service: server, userId: knownUser, server } };
      }
    });
    this.begin(next);
  }

  /** The account's tokens, watched for "sign in again". */
  private watchSignIn(tokens: TokenProvider, server: string): TokenProvider {
    const signedOut = (error: unknown): never => {
      const data = toBridgeError(error);
      if (data.code === 'NOT_SIGNED_IN' && this.accountNow.kind === 'signed-in') {
        this.accountNow = { kind: 'signed-out', server, reason: data };
        this.parts.publisher.emit({ type: 'sign-in-needed', server, reason: data });
        this.changed();
      }
      throw error;
    };
    return {
      accessToken: (forServer) => tokens.accessToken(forServer).catch(signedOut),
      refreshed: (previous, forServer) => tokens.refreshed(previous, forServer).catch(signedOut),
    };
  }
}

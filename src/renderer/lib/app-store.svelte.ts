/**
 * The window's one copy of the app: the latest state snapshot from the bridge, the activity feed, and
 * the outcome of the user's last command. Views read it and call `run` for commands; nothing here
 * decides anything about syncing.
 */
import { downloadedWords } from '../../shared/bridge/quick-download-words.js';
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AppState, BridgeErrorData } from '../../shared/bridge/app-state.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { QuickDownloadView } from '../../shared/bridge/quick-download.js';
import type { AppLink, LinkState } from '../transport/app-link.js';
import { ActivityFeed } from './activity-feed.svelte.js';

export interface Notice {
  id: number;
  tone: 'ok' | 'error';
  text: string;
}

export class AppStore {
  state = $state.raw<AppState | null>(null);
  /** Why the first state never came (transport failed), for the error screen. */
  loadError = $state.raw<BridgeErrorData | null>(null);
  /** Whether the app can be reached now; while it cannot, `state` is only how things were. */
  link = $state<LinkState>('up');
  /** Short messages after commands ("Couldn't pause: …"), newest last. */
  notices = $state<Notice[]>([]);
  /** Commands in flight, by a key the view chooses (to disable the button that started it). */
  busy = $state<Record<string, boolean>>({});
  /** A clock for "5 min ago" and "in 30 s", ticking every few seconds. */
  now = $state(Date.now());
  /** This window's view of the quick downloads of this run, newest first (replaced by id as events come). */
  downloads = $state.raw<QuickDownloadView[]>([]);
  readonly activity: ActivityFeed;
  private nextNotice = 1;
  /** Set when the link went down: the app may have restarted, its revisions counting from the start. */
  private resync = false;
  /** The server and account the app was last signed in to: each has its own activity. */
  private owner: string | undefined;

  /** `initial`: a state the window already has (the page came with it); the bridge's states follow. */
  constructor(
    readonly bridge: AppBridge,
    private readonly appLink: AppLink,
    initial?: AppState,
  ) {
    this.activity = new ActivityFeed(bridge);
    this.link = appLink.current();
    if (initial !== undefined) this.acceptState(initial);
  }

  /** Subscribes to the app; returns the function that stops everything. */
  start(): () => void {
    const unsubscribe = this.bridge.subscribe((event) => {
      this.onEvent(event);
    });
    const unlink = this.appLink.subscribe((link) => {
      if (link !== 'up') this.resync = true;
      this.link = link;
    });
    this.bridge.getState().then(
      (state) => {
        this.acceptState(state);
      },
      (error: unknown) => {
        if (this.state === null) this.loadError = toBridgeError(error);
      },
    );
    const clock = setInterval(() => {
      this.now = Date.now();
    }, 5000);
    return () => {
      clearInterval(clock);
      unlink();
      unsubscribe();
      this.activity.stop();
    };
  }

  private onEvent(event: AppEvent): void {
    switch (event.type) {
      case 'state':
        this.acceptState(event.state);
        return;
      case 'activity':
        this.activity.accept(event.entry);
        return;
      case 'quick-download':
        this.acceptDownload(event.download);
        return;
      case 'conflicts':
      case 'not-synced':
      case 'held-deletions':
      case 'sign-in-needed':
        // The state carries these too; the desktop shell turns them into notifications.
        return;
      default: {
        const unexpected: never = event;
        throw new Error(`Unexpected event ${JSON.stringify(unexpected)}`);
      }
    }
  }

  private acceptDownload(download: QuickDownloadView): void {
    const known = this.downloads.find((entry) => entry.id === download.id);
    // Events may overtake each other across the transport: a finished download never goes back to running.
    if (known !== undefined && known.status !== 'running') return;
    this.downloads = [download, ...this.downloads.filter((entry) => entry.id !== download.id)].slice(0, 20);
    if (download.status === 'done') this.notify('ok', downloadedWords(download));
  }

  private acceptState(state: AppState): void {
    if (this.state !== null && !this.resync && state.revision < this.state.revision) return;
    this.resync = false;
    this.state = state;
    this.loadError = null;
    const owner = state.account.kind === 'signed-in' ? `${state.account.server}\u0000${state.account.email}` : undefined;
    if (owner === undefined) return;
    if (this.owner !== undefined && owner !== this.owner) this.activity.reset();
    this.owner = owner;
  }

  /**
   * Runs a command, marks `key` busy meanwhile, and reports a failure as a notice in plain words
   * ("Couldn't resolve the conflict: …"), or to `failed` when the view shows it in place (a form beside
   * its fields). Resolves to whether it worked.
   */
  async run(key: string, what: string, command: () => Promise<unknown>, done?: string, failed?: (error: BridgeErrorData) => void): Promise<boolean> {
    this.busy[key] = true;
    try {
      await command();
      if (done !== undefined) this.notify('ok', done);
      return true;
    } catch (error) {
      if (failed !== undefined) failed(toBridgeError(error));
      else this.notify('error', `Couldn’t ${what}: ${toBridgeError(error).message}`);
      return false;
    } finally {
      this.busy[key] = false;
    }
  }

  notify(tone: Notice['tone'], text: string): void {
    const id = this.nextNotice++;
    // The same message again replaces the one shown, rather than stacking copies.
    this.notices = [...this.notices.filter((notice) => notice.text !== text), { id, tone, text }];
    setTimeout(() => {
      this.dismiss(id);
    }, tone === 'error' ? 12_000 : 4000);
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((notice) => notice.id !== id);
  }
}

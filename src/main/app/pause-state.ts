/**
 * The pauses the user asked for: all folders, or one folder, for an hour or until resumed. They outlive
 * sessions (a new session starts with them applied) and an hour's pause resumes itself on the clock.
 * It tells the running sync runner; it never stops transfers itself (the runner's gates do).
 */
import type { Clock } from '../local/index.js';
import type { AppBridge, PauseSpan } from '../../shared/bridge/app-bridge.js';
import { AppError } from './app-error.js';
import type { SyncRunner } from './sync-runner.js';

const HOUR = 3600_000;

interface Pause {
  /** When the pause ends (ISO), null until resumed. */
  until: string | null;
  cancel: () => void;
}

/** What the pauses ask of a sync runner. */
export type PausableRunner = Pick<SyncRunner, 'setPaused'>;

export interface PauseStateOptions {
  clock: Clock;
  /** The runner of the session now, if any. */
  runner: () => PausableRunner | undefined;
  /** Throws NOT_FOUND when the session has no such folder (no session: any id is taken). */
  checkFolder: (folderId: string) => void;
  changed: () => void;
}

export class PauseState {
  private global: Pause | undefined;
  private readonly folders = new Map<string, Pause>();

  constructor(private readonly options: PauseStateOptions) {}

  pause(request: Parameters<AppBridge['pause']>[0]): void {
    if (!['one-hour', 'until-resumed'].includes(request.span)) throw new AppError('INVALID_REQUEST', 'span is "one-hour" or "until-resumed".');
    if (request.folderId === undefined) {
      this.global?.cancel();
      this.global = this.entry(request.span, () => {
        this.resume(undefined);
      });
      this.options.runner()?.setPaused(undefined, true);
    } else {
      this.options.checkFolder(request.folderId);
      const folderId = request.folderId;
      this.folders.get(folderId)?.cancel();
      this.folders.set(
        folderId,
        this.entry(request.span, () => {
          this.resume(folderId);
        }),
      );
      this.options.runner()?.setPaused(folderId, true);
    }
    this.options.changed();
  }

  /** Ends the pause of one folder, or the global one (`undefined`). */
  resume(folderId: string | undefined): void {
    if (folderId === undefined) {
      this.global?.cancel();
      this.global = undefined;
      this.options.runner()?.setPaused(undefined, false);
    } else {
      this.folders.get(folderId)?.cancel();
      this.folders.delete(folderId);
      this.options.runner()?.setPaused(folderId, false);
    }
    this.options.changed();
  }

  /** A removed folder's pause ends without a word to the runner (the folder is gone). */
  forget(folderId: string): void {
    this.folders.get(folderId)?.cancel();
    this.folders.delete(folderId);
  }

  /** A new session's runner starts with every pause in place. */
  applyTo(runner: PausableRunner): void {
    for (const [rootId] of this.folders) runner.setPaused(rootId, true);
    if (this.global !== undefined) runner.setPaused(undefined, true);
  }

  /** The app closes: no pause ends on the clock any more. */
  cancelTimers(): void {
    this.global?.cancel();
    for (const pause of this.folders.values()) pause.cancel();
  }

  /** The global pause, as the state shows it. */
  globalView(): { until: string | null } | null {
    return this.global === undefined ? null : { until: this.global.until };
  }

  /** One folder's pause as the state shows it: the global pause wins. */
  folderView(folderId: string): { until: string | null } | undefined {
    if (this.global !== undefined) return { until: this.global.until };
    return this.folders.has(folderId) ? { until: this.folders.get(folderId)?.until ?? null } : undefined;
  }

  private entry(span: PauseSpan, onEnd: () => void): Pause {
    if (span === 'until-resumed') return { until: null, cancel: () => undefined };
    return { until: new Date(this.options.clock.now() + HOUR).toISOString(), cancel: this.options.clock.setTimer(HOUR, onEnd) };
  }
}

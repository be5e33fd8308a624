/**
 * When the local library's service and the engine may start loading after the window's link went out:
 * once a window has been sent its first state, so its page, its bundle and that state are answered by
 * an idle process (loading the service and the engine holds the thread for hundreds of milliseconds,
 * and every request that comes in meanwhile waits). A window that does not come within `waitMs` of the
 * link, or that opened but has no state `waitMs` after, holds nothing up any longer: the load starts.
 * Must never: keep the load waiting without a timer (a link nobody opens still syncs).
 */
import type { CancelTimer, Clock } from '../local/index.js';

export interface WindowFirst {
  /** Settles when the load may start. */
  readonly done: Promise<void>;
  /** The link went out: the wait for a window begins. */
  linked(): void;
  /** A window link was traded for a session: a page is loading, its wait starts again. */
  opened(): void;
  /** A window was sent a state: the load may start. */
  stateSent(): void;
  /** The load may start now (a first start, a failed start). */
  release(): void;
}

export function windowFirst(options: { clock: Clock; waitMs: number }): WindowFirst {
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((settle) => (resolve = settle));
  let released = false;
  let cancel: CancelTimer | undefined;
  const release = (): void => {
    if (released) return;
    released = true;
    cancel?.();
    resolve();
  };
  const wait = (): void => {
    if (released) return;
    cancel?.();
    cancel = options.clock.setTimer(options.waitMs, release);
  };
  return { done, linked: wait, opened: wait, stateSent: release, release };
}

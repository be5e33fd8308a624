/**
 * Publishes the app's state and events to the subscribed windows. A change publishes at once when the
 * last state went out at least `publishMs` ago, else once when that time is up (latest wins); a new
 * subscriber gets the state at once. It only carries states: it never builds one itself (it asks
 * `build`) and a listener that throws never stops the others.
 */
import type { Clock } from '../local/index.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AppState } from '../../shared/bridge/app-state.js';

export type AppListener = (event: AppEvent) => void;

export interface StatePublisherOptions {
  clock: Clock;
  /** Least time between two published states. */
  publishMs: number;
  /** Builds the state to send (it may emit events of its own first). */
  build: () => AppState;
}

export class StatePublisher {
  private readonly listeners = new Set<AppListener>();
  private lastPublish = -Infinity;
  /** Cancels the publish that waits for its turn; set while one waits. */
  private pending: (() => void) | undefined;
  private shut = false;

  constructor(private readonly options: StatePublisherOptions) {}

  /** Closed: nothing is published any more. */
  get closed(): boolean {
    return this.shut;
  }

  emit(event: AppEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A window's listener failing must not stop the others.
      }
    }
  }

  /** A change: publish now if the last one is old enough, else once, latest wins. */
  changed(): void {
    if (this.pending !== undefined || this.shut) return;
    const wait = this.lastPublish + this.options.publishMs - this.options.clock.now();
    if (wait <= 0) this.publishNow();
    else this.pending = this.options.clock.setTimer(wait, () => this.publishNow());
  }

  subscribe(listener: AppListener): () => void {
    this.listeners.add(listener);
    try {
      listener({ type: 'state', state: this.options.build() });
    } catch {
      // As in emit: one listener's failure is its own.
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Stops publishing: the waiting publish is dropped and every listener forgotten. */
  close(): void {
    this.shut = true;
    this.pending?.();
    this.listeners.clear();
  }

  private publishNow(): void {
    this.pending = undefined;
    this.lastPublish = this.options.clock.now();
    if (this.listeners.size === 0 || this.shut) return;
    try {
      this.emit({ type: 'state', state: this.options.build() });
    } catch {
      // The database closed under us (shutting down): the next state says it.
    }
  }
}

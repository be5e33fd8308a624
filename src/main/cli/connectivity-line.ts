/**
 * The CLI's rendering of the service's reachability (src/shared/sync/connectivity.ts): one line per
 * change of state — "Can't reach the service at URL — retrying (next try in 30 s)", redrawn in place
 * every second on a terminal — instead of an ECONNREFUSED per file and per poll. While the service is
 * unreachable it also tells `sync` which engine messages are only symptoms of that, to leave out.
 */
import { describeConnectivity, type Connectivity } from '../../shared/sync/connectivity.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

/** Reason codes of per-file failures that an unreachable service explains. */
const SYMPTOMS = /^(NETWORK|TIMEOUT|ABORTED): /;
const REMOTE_READ = "could not read the service's changes: ";

export class ConnectivityLine {
  private current: Connectivity | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private drawn = false;

  constructor(
    private readonly io: CommandIo,
    /** The state now (its next try moves on without a change of state). */
    private readonly state: () => Connectivity,
    private readonly now: () => number = Date.now,
  ) {}

  get unreachable(): boolean {
    return this.current?.state === 'unreachable';
  }

  /** A change of state: said once (and kept up to date in place on a terminal). */
  changed(connectivity: Connectivity): void {
    this.current = connectivity;
    this.clear();
    if (connectivity.state === 'reachable') {
      this.stopTimer();
      this.io.err(describeConnectivity(connectivity, this.now()));
      return;
    }
    if (this.io.live === undefined) {
      this.io.err(describeConnectivity(connectivity, this.now()));
      return;
    }
    this.draw();
    this.timer ??= setInterval(() => this.draw(), 1000);
    this.timer.unref();
  }

  /** Whether an engine message only repeats that the service cannot be reached. */
  quiets(message: string): boolean {
    return this.unreachable && (SYMPTOMS.test(message) || message.startsWith(REMOTE_READ));
  }

  /** Prints a line above the live one. */
  note(print: () => void): void {
    this.clear();
    print();
    if (this.unreachable && this.io.live !== undefined) this.draw();
  }

  close(): void {
    this.stopTimer();
    this.clear();
  }

  private draw(): void {
    const state = this.state();
    if (this.io.live === undefined || state.state !== 'unreachable') return;
    this.io.live(describeConnectivity(state, this.now()));
    this.drawn = true;
  }

  private clear(): void {
    if (this.drawn && this.io.live !== undefined) this.io.live('');
    this.drawn = false;
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * The simulation's virtual clock, shared by the engine, the API client and the service: time moves
 * only when someone sleeps. A sleep first lets the service finish what it runs in the background (its
 * batch jobs), then jumps time forward and resolves, so a job poll sees the same state on every run of
 * a seed whatever the real machine's speed. Timers and `advance` are ManualClock's (due time, then
 * creation order).
 */
import { ManualClock } from '../src/main/local/manual-clock.js';

export class SimClock extends ManualClock {
  /** Awaited before time moves (the service's job runner going idle). */
  quiesce: () => Promise<void> = async () => undefined;

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    await this.quiesce();
    this.advance(Math.max(1, ms));
  }
}

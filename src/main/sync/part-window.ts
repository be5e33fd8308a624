/**
 * How many upload parts may be in flight at once, bounded by time as well as by count (DESIGN.md §3).
 * A part the connection or the process loses mid-way is discarded by the service and sent again whole,
 * so what an interruption costs is what was in flight. A fixed eight parts of 16 MiB put up to 128 MiB
 * at stake: on a 10 MB/s line that is 13 s of sending thrown away. The window measures the rate parts
 * are confirmed at and lets in only as many bytes as `horizonMs` of that rate moves, at most
 * `maxParts`, at least one part (so a part larger than the budget still goes, alone). Below the rate at
 * which two parts fit the horizon, one part at a time costs only the round trip between parts, a small
 * share of seconds of sending; on loopback the budget is hundreds of MB and all `maxParts` run.
 *
 * The rate counts only time with a part in flight (an idle minute is not a slow line), over the last
 * `rateWindowMs` of that time. Before the first part is confirmed it is unknown and the budget is
 * `startBytes`: a short slow start instead of guessing eight parts.
 *
 * Waiters start in order (a large part at the head is not overtaken by small ones behind it forever).
 * Must never: hold a part back when nothing is in flight (it would wait for ever).
 */

/** What the window needs of time: milliseconds, never going back by much (a ManualClock in tests). */
export interface WindowClock {
  now(): number;
}

export interface PartWindowOptions {
  /** Parts in flight at most, whatever the rate. */
  maxParts: number;
  /** Seconds of transfer, in ms, the parts in flight may hold. */
  horizonMs?: number;
  /** The byte budget until a rate is measured. */
  startBytes?: number;
  /** Busy time the rate is measured over. */
  rateWindowMs?: number;
}

export const DEFAULT_HORIZON_MS = 3_000;
const MiB = 1024 * 1024;
const DEFAULT_START_BYTES = 32 * MiB;
const DEFAULT_RATE_WINDOW_MS = 5_000;

interface Waiter {
  bytes: number;
  start(): void;
}

export class PartWindow {
  private readonly maxParts: number;
  private readonly horizonMs: number;
  private readonly startBytes: number;
  private readonly rateWindowMs: number;
  private running = 0;
  private inFlightBytes = 0;
  private readonly waiting: Waiter[] = [];
  /** Time with at least one part in flight, in ms, and when it was last brought up to date. */
  private busyMs = 0;
  private busySince: number | undefined;
  /** Confirmed parts: busy time at confirmation and bytes, oldest first, the last `rateWindowMs` of busy time. */
  private readonly confirmed: { busyAt: number; bytes: number }[] = [];
  /** The bytes of `confirmed`, kept as they come and go: the rate is asked before every part, and thousands of small parts confirm within the window. */
  private confirmedBytes = 0;
  private measured = false;

  constructor(
    private readonly clock: WindowClock,
    options: PartWindowOptions,
  ) {
    if (!Number.isInteger(options.maxParts) || options.maxParts < 1) throw new RangeError(`parts in flight must be a positive integer, got ${options.maxParts}`);
    this.maxParts = options.maxParts;
    this.horizonMs = options.horizonMs ?? DEFAULT_HORIZON_MS;
    this.startBytes = options.startBytes ?? DEFAULT_START_BYTES;
    this.rateWindowMs = options.rateWindowMs ?? DEFAULT_RATE_WINDOW_MS;
  }

  /** Runs `task`, which sends a part of `bytes`, once the window has room for it. */
  async run<T>(bytes: number, task: () => Promise<T>): Promise<T> {
    // A waiter is counted in flight by whoever starts it (see ended), so the next head is measured against it.
    if (this.waiting.length > 0 || !this.fits(bytes)) await new Promise<void>((start) => this.waiting.push({ bytes, start }));
    else this.began(bytes);
    let sent = false;
    try {
      const result = await task();
      sent = true;
      return result;
    } finally {
      this.ended(bytes, sent);
    }
  }

  /**
   * Bytes per second parts were confirmed at lately: undefined until one was, 0 when none was over the
   * last `rateWindowMs` of busy time (a line that slow gets one part at a time).
   */
  rate(): number | undefined {
    const busy = this.busyNow();
    this.dropOld(busy);
    if (!this.measured) return undefined;
    if (this.confirmed.length === 0 || busy <= 0) return 0;
    return (this.confirmedBytes * 1000) / Math.min(busy, this.rateWindowMs);
  }

  /** The bytes the parts in flight may hold now. */
  budget(): number {
    const rate = this.rate();
    return rate === undefined ? this.startBytes : (rate * this.horizonMs) / 1000;
  }

  /** Parts in flight now (for tests and progress). */
  get inFlight(): number {
    return this.running;
  }

  private fits(bytes: number): boolean {
    if (this.running === 0) return true;
    return this.running < this.maxParts && this.inFlightBytes + bytes <= this.budget();
  }

  private began(bytes: number): void {
    this.tick();
    this.running++;
    this.inFlightBytes += bytes;
  }

  private ended(bytes: number, sent: boolean): void {
    this.tick();
    this.running--;
    this.inFlightBytes -= bytes;
    if (sent) {
      this.confirmed.push({ busyAt: this.busyMs, bytes });
      this.confirmedBytes += bytes;
      this.measured = true;
    }
    // Start waiters in order while the head fits; the first one always does once nothing is in flight.
    for (let head = this.waiting[0]; head !== undefined && this.fits(head.bytes); head = this.waiting[0]) {
      this.waiting.shift();
      this.began(head.bytes);
      head.start();
    }
  }

  /** Adds the time since the last event to the busy time, if parts were in flight. */
  private tick(): void {
    const now = this.clock.now();
    if (this.running > 0 && this.busySince !== undefined) this.busyMs += Math.max(0, now - this.busySince);
    this.busySince = now;
  }

  private busyNow(): number {
    const now = this.clock.now();
    return this.busyMs + (this.running > 0 && this.busySince !== undefined ? Math.max(0, now - this.busySince) : 0);
  }

  private dropOld(busy: number): void {
    while (this.confirmed.length > 0 && (this.confirmed[0]?.busyAt ?? busy) < busy - this.rateWindowMs) this.confirmedBytes -= this.confirmed.shift()?.bytes ?? 0;
  }
}

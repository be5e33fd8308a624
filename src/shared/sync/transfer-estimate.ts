/**
 * Transfer rate and time left, for the CLI's live progress line and the app's progress bars. The rate is an exponentially weighted
 * average over the last few seconds, so one fast or stalled moment does not swing the ETA; pauses
 * between files count (they are part of how long the rest takes). Pure: the clock is passed in, and
 * nothing here prints. Answers undefined rather than a guess when there is too little to go on, and
 * never a negative, NaN or infinite time.
 */

export interface TransferEstimateOptions {
  /** Bytes are summed over windows this long before they move the average (default 500 ms). */
  sampleMs?: number;
  /** How quickly old windows fade: a window this old weighs 1/e of a fresh one (default 5 s). */
  timeConstantMs?: number;
  /** No ETA before bytes have flowed this long (default 2 s). */
  warmUpMs?: number;
}

/** Longer than this and an ETA says nothing useful: none is given. */
const MAX_ETA_SECONDS = 100 * 3600;

export class TransferEstimate {
  private readonly sampleMs: number;
  private readonly timeConstantMs: number;
  private readonly warmUpMs: number;
  private startedAt: number | undefined;
  private windowStart = 0;
  private windowBytes = 0;
  // Weighted sum of window rates and the sum of their weights: their ratio is the average, unbiased
  // while only a few windows are in (a plain EWMA seeded with the first window would lean on it).
  private weightedRate = 0;
  private weight = 0;

  constructor(
    private readonly now: () => number,
    options: TransferEstimateOptions = {},
  ) {
    this.sampleMs = options.sampleMs ?? 500;
    this.timeConstantMs = options.timeConstantMs ?? 5000;
    this.warmUpMs = options.warmUpMs ?? 2000;
  }

  /**
   * Records bytes that moved since the last call. The first call only starts the clock: how long its
   * bytes took is unknown, and the time before it is not a pause.
   */
  add(bytes: number): void {
    const now = this.now();
    if (this.startedAt === undefined) {
      this.startedAt = now;
      this.windowStart = now;
      return;
    }
    if (Number.isFinite(bytes) && bytes > 0) this.windowBytes += bytes;
    this.advance(now);
  }

  /** Smoothed bytes per second, once a first window has closed. */
  rate(): number | undefined {
    this.advance(this.now());
    return this.weight > 0 ? this.weightedRate / this.weight : undefined;
  }

  /** Seconds until `remainingBytes` have moved at the smoothed rate; undefined while unknown or when nothing is left. */
  secondsLeft(remainingBytes: number): number | undefined {
    const rate = this.rate();
    if (this.startedAt === undefined || this.now() - this.startedAt < this.warmUpMs) return undefined;
    if (rate === undefined || !(rate > 0) || !(remainingBytes > 0)) return undefined;
    const seconds = Math.ceil(remainingBytes / rate);
    return Number.isFinite(seconds) && seconds <= MAX_ETA_SECONDS ? seconds : undefined;
  }

  /** Closes the current window into the average once it is long enough (a long silence is one slow window). */
  private advance(now: number): void {
    if (this.startedAt === undefined) return;
    const elapsed = now - this.windowStart;
    if (elapsed < 0) {
      // The wall clock stepped back: start the window again rather than wait for it to catch up.
      this.windowStart = now;
      return;
    }
    if (elapsed < this.sampleMs) return;
    const decay = Math.exp(-elapsed / this.timeConstantMs);
    this.weightedRate = this.weightedRate * decay + (1 - decay) * (this.windowBytes / (elapsed / 1000));
    this.weight = this.weight * decay + (1 - decay);
    this.windowStart = now;
    this.windowBytes = 0;
  }
}

/**
 * The bytes an ETA is for: what the pass planned and has not moved yet (retried bytes count twice on
 * the wire, so `done` may pass `planned`: nothing is left then, never a negative), plus the files still
 * waiting their turn (being written now, sent by a later pass), so a large file still to come is counted.
 */
export function bytesStillToMove(planned: number, done: number, waiting = 0): number {
  const inPass = Number.isFinite(planned) && Number.isFinite(done) ? Math.max(0, planned - Math.max(0, done)) : 0;
  return inPass + (Number.isFinite(waiting) ? Math.max(0, waiting) : 0);
}

/** 45s, 1m 20s, 2h 05m: coarse enough to read at a glance (not a number or negative reads as 0s). */
export function formatDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : 0;
  const pad = (value: number): string => String(value).padStart(2, '0');
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
  return `${Math.floor(whole / 3600)}h ${pad(Math.floor((whole % 3600) / 60))}m`;
}

/**
 * Whether the stores the service depends on answer: what `GET /health` reports, for a load balancer to
 * take an instance out of rotation and for a person to see which store is failing.
 *
 * A probe that has not answered within `timeoutMs` counts as failing (a blob directory on a network
 * share can hang for minutes; a health check must not). A probe still running is never started again:
 * each hung one holds a thread of libuv's pool, and a load balancer asking every few seconds would
 * otherwise take the whole pool, and with it every file call of the service. Until it answers, each
 * check reports it as failing, with how long it has been waiting.
 */

/** One store's check: resolves when the store answered, rejects (ideally with a `code`) when it did not. */
export interface StoreProbe {
  /** What the store is, e.g. `sqlite` or `directory`: named in the report, never a path or a URL. */
  readonly kind: string;
  check(): Promise<void>;
}

export interface StoreHealth {
  status: 'ok' | 'failing';
  kind: string;
  /** How long the probe took, or has been waiting so far. */
  ms: number;
  code?: string;
  message?: string;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: StoreHealth;
  blobs: StoreHealth;
}

export const HEALTH_TIMEOUT_MS = 2000;

export interface StoreHealthOptions {
  timeoutMs?: number;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
}

/** A probe's running check, shared by every report that asks while it runs. */
interface Running {
  since: number;
  done: Promise<StoreHealth>;
}

export class StoreHealthCheck {
  private readonly running = new Map<StoreProbe, Running>();
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly probes: { database: StoreProbe; blobs: StoreProbe },
    options: StoreHealthOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
    this.now = options.now ?? (() => performance.now());
  }

  async report(): Promise<HealthReport> {
    const [database, blobs] = await Promise.all([this.probe(this.probes.database), this.probe(this.probes.blobs)]);
    return { status: database.status === 'ok' && blobs.status === 'ok' ? 'ok' : 'unavailable', database, blobs };
  }

  private async probe(probe: StoreProbe): Promise<StoreHealth> {
    const waiting = this.running.get(probe);
    if (waiting !== undefined) {
      const ms = Math.round(this.now() - waiting.since);
      return { status: 'failing', kind: probe.kind, ms, code: 'STORE_NOT_ANSWERING', message: `The ${probe.kind} store has not answered for ${ms} ms.` };
    }
    const since = this.now();
    // A probe that throws instead of rejecting fails the same way.
    const done = new Promise<void>((resolve) => resolve(probe.check())).then(
      (): StoreHealth => ({ status: 'ok', kind: probe.kind, ms: Math.round(this.now() - since) }),
      (error: unknown): StoreHealth => ({ status: 'failing', kind: probe.kind, ms: Math.round(this.now() - since), code: codeOf(error), message: messageOf(error) }),
    );
    const running = { since, done };
    this.running.set(probe, running);
    void done.finally(() => {
      if (this.running.get(probe) === running) this.running.delete(probe);
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'failing', kind: probe.kind, ms: this.timeoutMs, code: 'STORE_NOT_ANSWERING', message: `The ${probe.kind} store did not answer within ${this.timeoutMs} ms.` }),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([done, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'STORE_FAILED';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

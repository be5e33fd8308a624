import { describe, expect, it, vi } from 'vitest';
import { createBandwidthLimiter } from './bandwidth-limiter.js';
import type { ClientClock } from './client-clock.js';

const KIB = 1024;

/** A clock whose sleeps end only when the test advances it past them (or their signal aborts). */
function manualClock(): ClientClock & { advance(ms: number): void; readonly sleeping: number } {
  let time = 0;
  let sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: () => time,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        const sleeper = { until: time + ms, wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener('abort', () => {
          sleepers = sleepers.filter((other) => other !== sleeper);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        });
      }),
    advance(ms) {
      time += ms;
      const due = sleepers.filter((sleeper) => sleeper.until <= time);
      sleepers = sleepers.filter((sleeper) => sleeper.until > time);
      for (const sleeper of due) sleeper.wake();
    },
    get sleeping() {
      return sleepers.length;
    },
  };
}

describe('BandwidthLimiter.grant', () => {
  it('grants everything at once without a cap, and at most a bucket (a quarter second) under one', async () => {
    const clock = manualClock();
    const limiter = createBandwidthLimiter(clock, null);
    expect(await limiter.grant(5 * 1024 * KIB)).toBe(5 * 1024 * KIB);

    limiter.setRate(1024 * KIB);
    const granted = limiter.grant(1024 * KIB);
    // The bucket starts empty when a cap is set: a quarter second for a bucket's worth.
    await vi.waitFor(() => expect(clock.sleeping).toBe(1));
    clock.advance(250);
    expect(await granted).toBe(256 * KIB);
  });

  it('still grants a waiting transfer when the rate is lowered under it (a smaller piece)', async () => {
    const clock = manualClock();
    const limiter = createBandwidthLimiter(clock, 1024 * KIB);
    expect(await limiter.grant(1024 * KIB)).toBe(256 * KIB);
    const waiting = limiter.grant(1024 * KIB);
    await vi.waitFor(() => expect(clock.sleeping).toBe(1));
    // The bucket shrinks to 16 KiB: a 256 KiB piece decided before would never fit in it.
    limiter.setRate(64 * KIB);
    clock.advance(250);
    expect(await waiting).toBe(16 * KIB);
  });

  it('gives up a wait when its signal aborts, taking nothing, and serves the next in turn', async () => {
    const clock = manualClock();
    const limiter = createBandwidthLimiter(clock, 64 * KIB);
    expect(await limiter.grant(16 * KIB)).toBe(16 * KIB);
    const controller = new AbortController();
    const cancelled = limiter.grant(16 * KIB, controller.signal);
    const next = limiter.grant(1000);
    await vi.waitFor(() => expect(clock.sleeping).toBe(1));
    controller.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
    // 1000 bytes at 64 KiB/s: 16 ms, because the cancelled wait took no tokens.
    await vi.waitFor(() => expect(clock.sleeping).toBe(1));
    clock.advance(16);
    expect(await next).toBe(1000);
  });
});

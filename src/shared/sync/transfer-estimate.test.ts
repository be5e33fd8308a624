import { describe, expect, it } from 'vitest';
import { TransferEstimate, bytesStillToMove, formatDuration } from './transfer-estimate.js';

const MB = 1_000_000;

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

/** `bytesPerSecond` for `ms`, reported every 100 ms. */
function flow(estimate: TransferEstimate, clock: ReturnType<typeof manualClock>, bytesPerSecond: number, ms: number): void {
  for (let elapsed = 0; elapsed < ms; elapsed += 100) {
    clock.advance(100);
    estimate.add(bytesPerSecond / 10);
  }
}

describe('TransferEstimate', () => {
  it('knows nothing before bytes flow', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    clock.advance(10_000);
    expect(estimate.rate()).toBeUndefined();
    expect(estimate.secondsLeft(100 * MB)).toBeUndefined();
  });

  it('gives a rate after the first window but no ETA until two seconds of transfer', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 1900);
    expect(estimate.rate()).toBeCloseTo(10 * MB, -5);
    expect(estimate.secondsLeft(100 * MB)).toBeUndefined();
    flow(estimate, clock, 10 * MB, 200);
    expect(estimate.secondsLeft(100 * MB)).toBe(10);
  });

  it('answers no ETA when nothing is left, and never a negative or non-finite one', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 3000);
    expect(estimate.secondsLeft(0)).toBeUndefined();
    expect(estimate.secondsLeft(-5 * MB)).toBeUndefined();
    expect(estimate.secondsLeft(Number.NaN)).toBeUndefined();
    expect(estimate.secondsLeft(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(estimate.secondsLeft(1)).toBe(1);
  });

  it('smooths: one fast moment barely moves it, a lasting change wins within seconds', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 10_000);
    clock.advance(500);
    estimate.add(50 * MB); // 100 MB/s for half a second
    expect(estimate.rate()).toBeLessThan(20 * MB);
    flow(estimate, clock, 10 * MB, 15_000);
    expect(estimate.rate()).toBeCloseTo(10 * MB, -6);

    flow(estimate, clock, 2 * MB, 3000);
    const midway = estimate.rate() ?? 0;
    expect(midway).toBeGreaterThan(2 * MB);
    expect(midway).toBeLessThan(7 * MB);
    flow(estimate, clock, 2 * MB, 20_000);
    expect(Math.abs((estimate.rate() ?? 0) / (2 * MB) - 1)).toBeLessThan(0.05);
  });

  it('counts a stall as slow, and gives up on an ETA rather than answer an endless one', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 3000);
    const before = estimate.secondsLeft(100 * MB) ?? 0;
    clock.advance(5000);
    expect(estimate.secondsLeft(100 * MB)).toBeGreaterThan(before);
    clock.advance(3_600_000);
    expect(estimate.rate()).toBeGreaterThanOrEqual(0);
    expect(estimate.secondsLeft(100 * MB)).toBeUndefined();
  });

  it('survives the wall clock stepping back', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 3000);
    clock.advance(-60_000);
    flow(estimate, clock, 10 * MB, 3000);
    expect(estimate.rate()).toBeCloseTo(10 * MB, -6);
  });
});

describe('bytesStillToMove', () => {
  it('counts what the pass has left and the files still waiting their turn', () => {
    expect(bytesStillToMove(100 * MB, 40 * MB)).toBe(60 * MB);
    // A 2 GB file still being written comes after the 60 MB in flight: the ETA is for 2.06 GB.
    expect(bytesStillToMove(100 * MB, 40 * MB, 2000 * MB)).toBe(2060 * MB);
    // The pass is done, the big file is still to come.
    expect(bytesStillToMove(100 * MB, 100 * MB, 2000 * MB)).toBe(2000 * MB);
  });

  it('never answers a negative or non-finite amount (retries move more than planned)', () => {
    expect(bytesStillToMove(100, 130)).toBe(0);
    expect(bytesStillToMove(100, 130, 50)).toBe(50);
    expect(bytesStillToMove(100, -5)).toBe(100);
    expect(bytesStillToMove(Number.NaN, 0, Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('gives an ETA for the waiting file once the pass has nothing left', () => {
    const clock = manualClock();
    const estimate = new TransferEstimate(clock.now);
    estimate.add(0);
    flow(estimate, clock, 10 * MB, 3000);
    expect(estimate.secondsLeft(bytesStillToMove(30 * MB, 30 * MB))).toBeUndefined();
    expect(estimate.secondsLeft(bytesStillToMove(30 * MB, 30 * MB, 200 * MB))).toBe(20);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [0.2, '1s'],
    [45, '45s'],
    [59.5, '1m 00s'],
    [80, '1m 20s'],
    [605, '10m 05s'],
    [3600, '1h 00m'],
    [7500, '2h 05m'],
    [-3, '0s'],
    [Number.NaN, '0s'],
  ])('%d s → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../local/index.js';
import { PartWindow } from './part-window.js';

const MiB = 1024 * 1024;

/** A part whose PUT the test finishes (or fails) by hand. */
interface HeldPart {
  started: boolean;
  finish(): void;
  fail(): void;
  done: Promise<unknown>;
}

function hold(window: PartWindow, bytes: number): HeldPart {
  let finish = (): void => undefined;
  let fail = (): void => undefined;
  const part: HeldPart = {
    started: false,
    finish: () => finish(),
    fail: () => fail(),
    done: Promise.resolve(),
  };
  part.done = window
    .run(bytes, () => {
      part.started = true;
      return new Promise<void>((resolve, reject) => {
        finish = resolve;
        fail = () => reject(new Error('connection reset'));
      });
    })
    .catch(() => undefined);
  return part;
}

/** Lets the window's promise callbacks run. */
const settle = async (): Promise<void> => {
  for (let round = 0; round < 5; round++) await Promise.resolve();
};

const startedCount = (parts: readonly HeldPart[]): number => parts.filter((part) => part.started).length;

describe('PartWindow', () => {
  it('starts with the start budget, then holds only a few seconds of the measured rate in flight', async () => {
    const clock = new ManualClock();
    const window = new PartWindow(clock, { maxParts: 8, horizonMs: 3_000, startBytes: 32 * MiB });
    const parts = Array.from({ length: 12 }, () => hold(window, 16 * MiB));
    await settle();
    // Unmeasured: two 16 MiB parts fit the 32 MiB start budget.
    expect(window.rate()).toBeUndefined();
    expect(startedCount(parts)).toBe(2);

    // A 10 MiB/s line: the two parts take 3.2 s together. 3 s of 10 MiB/s is 30 MiB: one part fits
    // beside nothing, a second would exceed it.
    clock.advance(3_200);
    parts[0]?.finish();
    parts[1]?.finish();
    await settle();
    expect(window.rate()).toBeCloseTo((32 * MiB) / 3.2, -3);
    expect(window.budget()).toBeCloseTo(30 * MiB, -3);
    expect(window.inFlight).toBe(1);
    expect(startedCount(parts)).toBe(3);
  });

  it('runs up to maxParts when the rate is high (loopback)', async () => {
    const clock = new ManualClock();
    const window = new PartWindow(clock, { maxParts: 8, horizonMs: 3_000 });
    const first = [hold(window, 16 * MiB), hold(window, 16 * MiB)];
    await settle();
    // 32 MiB in 100 ms: 320 MiB/s, so 3 s hold 960 MiB; the count cap of 8 binds first.
    clock.advance(100);
    first.forEach((part) => part.finish());
    await settle();
    const next = Array.from({ length: 12 }, () => hold(window, 16 * MiB));
    await settle();
    expect(startedCount(next)).toBe(8);
    expect(window.inFlight).toBe(8);
  });

  it('always lets one part go, even one larger than the budget', async () => {
    const clock = new ManualClock();
    const window = new PartWindow(clock, { maxParts: 8, startBytes: MiB });
    const parts = [hold(window, 64 * MiB), hold(window, 64 * MiB)];
    await settle();
    expect(startedCount(parts)).toBe(1);
    clock.advance(60_000);
    parts[0]?.finish();
    await settle();
    expect(startedCount(parts)).toBe(2);
    parts[1]?.finish();
    await Promise.all(parts.map((part) => part.done));
    expect(window.inFlight).toBe(0);
  });

  it('does not count idle time as a slow line, nor failed parts as sent', async () => {
    const clock = new ManualClock();
    const window = new PartWindow(clock, { maxParts: 8, horizonMs: 3_000 });
    const first = hold(window, 16 * MiB);
    await settle();
    clock.advance(100);
    first.finish();
    await settle();
    const rate = window.rate();
    expect(rate).toBeCloseTo((16 * MiB) / 0.1, -3);
    // A minute with nothing to send changes nothing.
    clock.advance(60_000);
    expect(window.rate()).toBe(rate);
    // A part that fails after 10 s adds busy time but no bytes: the rate drops.
    const failing = hold(window, 16 * MiB);
    await settle();
    clock.advance(10_000);
    failing.fail();
    await failing.done;
    expect(window.rate()).toBe(0);
    expect(window.inFlight).toBe(0);
  });

  it('starts waiters in order: small parts do not overtake a large one at the head', async () => {
    const clock = new ManualClock();
    const window = new PartWindow(clock, { maxParts: 8, startBytes: 20 * MiB });
    const first = hold(window, 16 * MiB);
    const large = hold(window, 16 * MiB);
    const small = hold(window, MiB);
    await settle();
    expect([first.started, large.started, small.started]).toEqual([true, false, false]);
    clock.advance(10_000);
    first.finish();
    await settle();
    // 1.6 MiB/s over 3 s: 4.8 MiB, so the large part goes alone and the small one waits behind it.
    expect([large.started, small.started]).toEqual([true, false]);
    large.finish();
    await settle();
    expect(small.started).toBe(true);
  });

  it('refuses a window of no parts', () => {
    expect(() => new PartWindow(new ManualClock(), { maxParts: 0 })).toThrow(RangeError);
  });
});

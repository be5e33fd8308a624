import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';

/** A piece of work that runs until the test lets it finish (or fail). */
function gated(log: string[], name: string): { work: () => Promise<string>; finish: () => void; fail: () => void } {
  let finish = (): void => undefined;
  let fail = (): void => undefined;
  const work = (): Promise<string> => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = () => resolve(name);
      fail = () => reject(new Error(name));
    });
  };
  return { work, finish: () => finish(), fail: () => fail() };
}

// A timer, not setImmediate: src/shared is type-checked for the browser too (the renderer's svelte-check).
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('ConcurrencyLimit', () => {
  it('runs at most its size at once, the waiters in the order they came, each as soon as a slot frees', async () => {
    const slots = new ConcurrencyLimit(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gated(log, name));
    if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error('four works');
    // Settled as they go: a's failure is handled the moment it happens.
    const outcomes = Promise.allSettled([a, b, c, d].map((work) => slots.run(work.work)));
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    // A failure frees its slot too, and reaches only its own caller.
    a.fail();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    c.finish();
    d.finish();
    expect((await outcomes).map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'failed'))).toEqual(['failed', 'b', 'c', 'd']);
    // All slots are free again: two new works start at once.
    const [e, f] = ['e', 'f'].map((name) => gated(log, name));
    if (e === undefined || f === undefined) throw new Error('two works');
    const more = [slots.run(e.work), slots.run(f.work)];
    await settle();
    expect(log.slice(-2)).toEqual(['start e', 'start f']);
    e.finish();
    f.finish();
    expect(await Promise.all(more)).toEqual(['e', 'f']);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimit(1.5)).toThrow(RangeError);
  });
});

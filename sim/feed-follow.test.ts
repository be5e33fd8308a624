/**
 * The change feed in the simulation (feed-follow.ts): a client that follows it hears the service's
 * changes through the engine's own listener, under the feed's faults, a restored service's refusal of
 * its cursor sends it to a full listing, and the seed still passes every invariant and replays to the
 * same trace (the reconnections are timers on the virtual clock, the jitter drawn from the seed).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeSimService, runSeed } from './run-seed.js';

describe('the change feed in the simulation', { timeout: 600_000 }, () => {
  afterAll(closeSimService);

  it('follows the feed through refused connections and a restored service, converges, and replays', async () => {
    // Seed 14: client 1 watches and follows the feed; its faults refuse a connection, then a
    // reconnection's cursor is past the restored service's history (410 CHANGE_CURSOR_UNKNOWN).
    const first = await runSeed(14);
    expect(first.failures).toEqual([]);
    const said = (text: string): boolean => first.trace.some((line) => line.includes(text));
    expect(said("client 1 follows the service's change feed")).toBe(true);
    expect(said("[c1] info : Following the service's change feed.")).toBe(true);
    expect(said('[c1] feed fault refused on GET /change-events')).toBe(true);
    expect(said('[c1] feed fault restored on GET /change-events')).toBe(true);
    expect(said('no longer knows where this client was in its change feed; listing every folder in full')).toBe(true);
    expect(first.trace.some((line) => /\[c1\] feed: [A-Z_,]+ changed/.test(line))).toBe(true);
    await runSeed(15);
    expect((await runSeed(14)).trace).toEqual(first.trace);
  });

  it('clients that follow the feed hear the service\'s changes on it, and their seeds pass', async () => {
    // Seeds 1, 4, 6 and 8 each have a client that follows the feed (6: a 503 on it; 8: a dropped connection).
    const heard: number[] = [];
    for (const seed of [1, 4, 6, 8]) {
      const result = await runSeed(seed);
      expect(result.failures).toEqual([]);
      if (result.trace.some((line) => / feed: [A-Z_,]+ changed/.test(line))) heard.push(seed);
    }
    expect(heard).toEqual([1, 4, 6, 8]);
  });
});

/**
 * A seed's trace does not depend on how long the service takes to verify its token (issue 19). A
 * token's first verification is WebCrypto's, on the threadpool: its answer comes after however many
 * turns of the event loop the machine needs, while other chains (the change feed's listener
 * connecting) go on turn by turn. Here each verification is held for a real delay that differs
 * between two runs of seed 4 (longest first in one, shortest first in the other, so concurrent
 * verifications finish in opposite orders); the seed must still replay to the same trace, as it does
 * when the harness verifies the token before any client runs.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeSimService, runSeed } from './run-seed.js';

/** The real delay of each verification, in the order they start; then none. */
const delays: number[] = [];

vi.mock('jose', async (original) => {
  const jose = await original<typeof import('jose')>();
  const jwtVerify = async (...args: Parameters<typeof jose.jwtVerify>): ReturnType<typeof jose.jwtVerify> => {
    const ms = delays.shift() ?? 0;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return jose.jwtVerify(...args);
  };
  return { ...jose, jwtVerify };
});

describe("the simulation and the service's token verification", { timeout: 600_000 }, () => {
  afterAll(closeSimService);

  it('replays seed 4 to the same trace however long each verification of its token takes', async () => {
    delays.push(60, 30, 0);
    const first = await runSeed(4);
    delays.length = 0;
    delays.push(0, 30, 60);
    const second = await runSeed(4);
    delays.length = 0;
    expect(first.failures).toEqual([]);
    expect(second.trace).toEqual(first.trace);
  });
});

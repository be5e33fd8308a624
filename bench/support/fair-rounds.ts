/**
 * Rounds that treat the two sides of a comparison alike: the bare baseline and ours run in the same
 * process layout, one after the other, several times, and each side's best round counts.
 *
 * ORDER: which side goes first alternates (the baseline in even rounds, ours in odd ones). On these
 * machines the order alone decides a verdict: with the sides in a fixed order, the 1 GiB sync measured
 * 0.63 and 0.69 of the baseline with the baseline always first, and 0.81 and 0.82 with ours always
 * first, the same hour (2026-11-23). Memory and file-system state left by whichever ran before — pages
 * freed a moment ago, inodes deleted in the last minutes — is cheaper or dearer to the next writer.
 *
 * SETTLE: each run starts after a pause, so memory freed by the run before (the VM hands it back to
 * its host after about 2 s) is in the same state whichever side comes next.
 *
 * MORE THAN TWO SIDES: the order rotates by one each round (round r starts with side r mod n), so in
 * n rounds each side runs once in each place; with two sides that is the alternation above.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** The pause before each run, ms (BENCH_SETTLE_MS overrides it). */
export const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 4000);

export interface RoundSides {
  /** Prepares a round before either side runs (e.g. new bytes in the files both send). */
  beforeRound?: (round: number) => void;
  baseline: (round: number) => Promise<void>;
  ours: (round: number) => Promise<void>;
}

/** Runs `rounds` rounds of both sides, alternating which goes first and settling before each run. */
export async function alternatingRounds(rounds: number, sides: RoundSides): Promise<void> {
  await rotatingRounds(rounds, { ...(sides.beforeRound === undefined ? {} : { beforeRound: sides.beforeRound }), sides: [sides.baseline, sides.ours] });
}

export interface RotatingSides {
  /** Prepares a round before any side runs. */
  beforeRound?: (round: number) => void;
  sides: readonly ((round: number) => Promise<void>)[];
}

/** Runs `rounds` rounds of every side, rotating which goes first (MORE THAN TWO SIDES) and settling before each run. */
export async function rotatingRounds(rounds: number, { beforeRound, sides }: RotatingSides): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    beforeRound?.(round);
    for (let place = 0; place < sides.length; place++) {
      const run = sides[(round + place) % sides.length];
      if (run === undefined) continue;
      await delay(SETTLE_MS);
      await run(round);
    }
  }
}

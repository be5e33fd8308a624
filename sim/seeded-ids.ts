/**
 * The service's row ids for the simulation (`ServiceDeps.ids`): drawn from a seeded generator on the
 * virtual clock, and started again for every seed, so a seed's assets, folder options, jobs and uploads
 * get the same ids in every run and every process. Ids decide orders the engine keeps (which of two
 * options `A` and `a` a case-insensitive client once numbered `a (2)`), so real randomness here made
 * such seeds fail in some runs only.
 */
import type { Clock } from '../src/service/clock.js';
import { idSourceFrom, type IdSource } from '../src/service/db/time-ordered-id.js';
import { Prng } from './prng.js';

/** Keeps the service's ids apart from the scenario's own draws of the same seed. */
const ID_STREAM = 0x1d5e_ed00;

export class SeededIds implements IdSource {
  private current: IdSource;

  constructor(private readonly clock: Clock) {
    // The ids of the bootstrap, drawn before any seed: a stream no seed uses.
    this.current = this.sourceFor(-1);
  }

  /** Starts the ids over for a seed (with the clock reset for it). */
  reseed(seed: number): void {
    this.current = this.sourceFor(seed);
  }

  uuid(): string {
    return this.current.uuid();
  }

  token(): string {
    return this.current.token();
  }

  private sourceFor(seed: number): IdSource {
    const random = new Prng((seed ^ ID_STREAM) >>> 0);
    return idSourceFrom(
      () => this.clock.now(),
      (bytes) => {
        for (let at = 0; at < bytes.length; at++) bytes[at] = random.nextUint32() & 0xff;
      },
    );
  }
}

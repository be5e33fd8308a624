/**
 * The fault layer between the engine and its edges. Every call to the service and every file system
 * call of the engine passes through `Faults`, which (while faults are on) draws from the seed's own
 * random stream whether and how it fails: network failures before the request is sent and after the
 * service committed it, timeouts, 5xx, 429/503 with Retry-After, 401 on an expired token, the service
 * gone for a number of calls, disk full, permission denied, a file changed while it is uploaded, and a
 * crash. A crash stops the engine's world at once: every later call of that engine throws SimCrash
 * until the harness rebuilds the engine from what it had persisted.
 * Each fault is written to the trace, so a seed's trace shows what broke where.
 */
import type { Prng } from './prng.js';

export type NetworkFault = 'reset-before' | 'lost-after-commit' | 'timeout' | 'http-500' | 'http-502-after' | 'http-429' | 'http-503' | 'http-401' | 'outage';
export type DiskFault = 'ENOSPC' | 'EACCES' | 'changed-while-uploaded';

export const NETWORK_FAULTS: readonly NetworkFault[] = ['reset-before', 'lost-after-commit', 'timeout', 'http-500', 'http-502-after', 'http-429', 'http-503', 'http-401', 'outage'];

/** Thrown at the crash point and by every call after it, until the engine is rebuilt. */
export class SimCrash extends Error {
  override readonly name = 'SimCrash';
  readonly code = 'SIM_CRASH';
}

export interface FaultRates {
  /** Per service call. */
  network: number;
  /** Per file system call that writes or reads file content. */
  disk: number;
  /** Per service call or rename: the process dies there. */
  crash: number;
  /** Per row an executor step commits to the state database (db-faults.ts; default: `crash`). */
  commit?: number;
  /** The network faults drawn from (default: all of NETWORK_FAULTS). */
  networkKinds?: readonly NetworkFault[];
  /** Crash points (`POST /asset-uploads (after)`) where each client dies the first time it passes while faults are on: a focused test's crash. */
  crashAt?: readonly string[];
}

export const NO_FAULTS: FaultRates = { network: 0, disk: 0, crash: 0 };

export class Faults {
  active = false;
  crashed = false;
  /** Hears the crash as it happens (the harness keeps the state database as it is at that point). */
  onCrash: () => void = () => undefined;
  /** A crash drawn after a state-database commit (db-faults.ts): the process dies at its next step. */
  pendingDeath: string | undefined;
  /** Calls the service stays unreachable for. */
  private outage = 0;
  /** The `crashAt` points this client has died at already. */
  private readonly diedAt = new Set<string>();

  constructor(
    private readonly random: Prng,
    readonly rates: FaultRates,
    private readonly trace: (line: string) => void,
  ) {}

  /** Throws SimCrash when the engine is dead, or (by chance) kills it here. */
  crashPoint(where: string): void {
    if (this.crashed) throw new SimCrash(`crashed earlier; ${where}`);
    // Scripted before anything is drawn: without `crashAt` a seed draws what it always drew.
    const scripted = this.active && this.rates.crashAt?.includes(where) === true && !this.diedAt.has(where);
    if (scripted) this.diedAt.add(where);
    if (!this.active || (this.pendingDeath === undefined && !scripted && !this.random.chance(this.rates.crash))) return;
    this.die(where);
    throw new SimCrash(`crash at ${where}`);
  }

  /** The process dies now if a crash drawn after a commit still waits for a next step (the sync ended first). */
  diePending(where: string): void {
    if (this.pendingDeath !== undefined && !this.crashed) this.die(where);
  }

  private die(where: string): void {
    this.crashed = true;
    this.trace(`CRASH at ${where}${this.pendingDeath === undefined ? '' : ` (${this.pendingDeath})`}`);
    this.pendingDeath = undefined;
    this.onCrash();
  }

  /** The network fault for this call, if any. */
  network(label: string): NetworkFault | undefined {
    if (!this.active) return undefined;
    if (this.outage > 0) {
      this.outage--;
      return 'outage';
    }
    if (!this.random.chance(this.rates.network)) return undefined;
    const fault = this.random.pick(this.rates.networkKinds ?? NETWORK_FAULTS);
    if (fault === 'outage') this.outage = 1 + this.random.int(6);
    this.trace(`fault ${fault} on ${label}`);
    return fault;
  }

  disk(label: string, kinds: readonly DiskFault[]): DiskFault | undefined {
    if (!this.active || !this.random.chance(this.rates.disk)) return undefined;
    const fault = this.random.pick(kinds);
    this.trace(`fault ${fault} on ${label}`);
    return fault;
  }
}

/** An error shaped like got's / Node's, for transportError to classify. */
export function transportFailure(code: string, message: string, name = 'RequestError', event?: string): Error {
  const error = new Error(message);
  error.name = name;
  Object.assign(error, event === undefined ? { code } : { code, event });
  return error;
}

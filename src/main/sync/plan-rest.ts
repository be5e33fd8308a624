/**
 * When a root may skip its plan (DESIGN.md §3, a pass). A plan reads the whole local, synced and remote
 * snapshots: about 1 s of CPU at 100,000 files, and a watching engine passes at every remote poll. So a
 * root whose last plan found nothing to do rests, and plans again only when something the plan reads
 * may have changed: a scan ran, the state database changed (anyone's write: `stateVersion`), a retry
 * came due or the assets awaiting a look changed (`waiting`) — or REPLAN_AT_LEAST_EVERY_MS passed,
 * which bounds what a change this rule failed to notice could wait.
 */

export const REPLAN_AT_LEAST_EVERY_MS = 5 * 60_000;

/** What a pass knows before it plans. */
export interface PassInputs {
  now: number;
  /** A scan or rescan ran this pass, or folders were renamed on disk. */
  observed: boolean;
  /** The state database's version (root-sync.ts `stateVersion`); undefined: unknown, never rest. */
  state: string | undefined;
  /** The paths waiting out a retry and the assets whose remote state is unknown, as one key. */
  waiting: string;
}

interface Rest {
  at: number;
  state: string;
  waiting: string;
  heldDeletes: number;
}

export class PlanRest {
  private rest: Rest | undefined;

  /** The held deletions to report when the root may rest this pass; undefined when it must plan. */
  resting(inputs: PassInputs): { heldDeletes: number } | undefined {
    const { rest } = this;
    this.rest = undefined;
    if (inputs.observed || rest === undefined || inputs.state === undefined) return undefined;
    if (inputs.now - rest.at >= REPLAN_AT_LEAST_EVERY_MS || rest.waiting !== inputs.waiting || rest.state !== inputs.state) return undefined;
    this.rest = rest;
    return { heldDeletes: rest.heldDeletes };
  }

  /** After a plan and its execution: with nothing done, the root rests from the state as it is now. */
  planned(inputs: Omit<PassInputs, 'observed'>, operations: number, heldDeletes: number): void {
    this.rest = operations === 0 && inputs.state !== undefined ? { at: inputs.now, state: inputs.state, waiting: inputs.waiting, heldDeletes } : undefined;
  }
}

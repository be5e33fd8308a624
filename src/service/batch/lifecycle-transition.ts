/**
 * Lifecycle rules (SERVICE-SPEC §3, API.md §3): STAGED → PENDING_APPROVAL or LIVE; PENDING_APPROVAL →
 * LIVE, or back to STAGED; any state → BINNED (the recoverable delete), remembering where it came
 * from; BINNED → only that state. A transition to the state an asset is already in changes nothing,
 * so a retried job is harmless. Pure: it computes the new row, it never writes.
 */
import type { LifecycleState } from '../../shared/api/resources.js';
import type { AssetRow } from '../assets/assets-repo.js';
import { ServiceError } from '../errors/service-error.js';

const forward: Record<Exclude<LifecycleState, 'BINNED'>, readonly LifecycleState[]> = {
  STAGED: ['PENDING_APPROVAL', 'LIVE'],
  PENDING_APPROVAL: ['LIVE', 'STAGED'],
  LIVE: [],
};

export type LifecycleChange = Pick<AssetRow, 'state' | 'state_before_bin' | 'date_pending_approval' | 'date_live'>;

/** The asset's lifecycle columns after moving to `target`, or undefined when it is already there. */
export function transition(row: AssetRow, target: LifecycleState, now: string): LifecycleChange | undefined {
  if (row.state === target) return undefined;
  if (target === 'BINNED') {
    return { state: 'BINNED', state_before_bin: row.state, date_pending_approval: row.date_pending_approval, date_live: row.date_live };
  }
  if (row.state === 'BINNED') {
    const from = row.state_before_bin ?? 'STAGED';
    if (target !== from) throw new ServiceError('INVALID_TRANSITION', `Asset ${row.id} is in the bin and can only go back to ${from}.`);
    return { state: from, state_before_bin: null, date_pending_approval: row.date_pending_approval, date_live: row.date_live };
  }
  if (!forward[row.state].includes(target)) {
    throw new ServiceError('INVALID_TRANSITION', `Asset ${row.id} is ${row.state}; it cannot move to ${target}.`);
  }
  return {
    state: target,
    state_before_bin: null,
    date_pending_approval: target === 'PENDING_APPROVAL' ? now : row.date_pending_approval,
    date_live: target === 'LIVE' ? now : row.date_live,
  };
}

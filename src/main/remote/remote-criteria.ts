/**
 * The searches the remote feed sends (API.md §5), in one place. Every one names LIFECYCLE_STATE, because
 * a criterion that does not only matches LIVE assets (the default state filter) and STAGED assets are
 * synced too. Folder scope is a FIELD_IN over every option of the root's tree, with `includeSubfolders`
 * as well: our service expands it, and a server that ignores it still gets every folder by id.
 */
import type { Criterion } from '../api/index.js';

/** What a synced root holds: assets not in the bin. */
export const SYNCED_STATES = ['STAGED', 'PENDING_APPROVAL', 'LIVE'] as const;
/** Polls also ask for BINNED ones, so a move to the bin is seen without waiting for a full listing. */
export const POLLED_STATES = [...SYNCED_STATES, 'BINNED'] as const;

/** FIELD_IN takes at most this many values on our service. */
export const MAX_IN_VALUES = 1000;

const fixed = (fieldName: string) => ({ type: 'FIXED', fieldName });

export function stateCriterion(states: readonly string[]): Criterion {
  return { type: 'FIELD_IN', field: fixed('LIFECYCLE_STATE'), values: [...states] };
}

/** Assets filed in any of these options (and, where supported, their sub-folders). */
export function folderCriterion(fieldId: string, optionIds: readonly string[]): Criterion {
  return { type: 'FIELD_IN', field: { type: 'FIELD', fieldId }, values: [...optionIds], includeSubfolders: true };
}

/** Changed since `sinceIso`: modified, or given a new file (a server may set the former into the past). */
export function changedSinceCriterion(sinceIso: string): Criterion {
  const range = `[${sinceIso} TO *]`;
  return {
    type: 'OR',
    criteria: [
      { type: 'FIELD_MATCHES', field: fixed('DATE_LAST_MODIFIED'), value: range },
      { type: 'FIELD_MATCHES', field: fixed('DATE_LAST_ASSET_FILE_ADDED'), value: range },
    ],
  };
}

export function assetIdsCriterion(assetIds: readonly string[]): Criterion {
  return { type: 'FIELD_IN', field: fixed('ASSET_ID'), values: [...assetIds] };
}

export function allOf(...criteria: (Criterion | undefined)[]): Criterion {
  const present = criteria.filter((criterion): criterion is Criterion => criterion !== undefined);
  return present.length === 1 && present[0] !== undefined ? present[0] : { type: 'AND', criteria: present };
}

/** Splits a list into chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * The asset selector of batch jobs (SERVICE-SPEC §2.9): `{ type: "BY_IDS", assetIds }` or
 * `{ type: "BY_CRITERION", criterion }`. A selector is resolved to asset ids once, when the job is
 * created, and the job stores them: a restart then works through exactly the same assets, even when
 * the job itself changes what the criterion matches (a lifecycle transition out of STAGED does).
 */
import { z } from 'zod';
import { ServiceError } from '../errors/service-error.js';
import type { Caller } from '../http/request-auth.js';
import { requiredByHandler } from '../http/null-as-absent.js';

/** The most assets one batch job may select. */
export const MAX_SELECTED_ASSETS = 100_000;

export const selectorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('BY_IDS'), assetIds: z.array(z.string().min(1).max(200)).min(1).max(MAX_SELECTED_ASSETS) }),
  z.object({ type: z.literal('BY_CRITERION'), criterion: requiredByHandler(z.unknown()) }),
]);
export type AssetSelector = z.infer<typeof selectorSchema>;

/** Every asset id of the caller's account a criterion matches (the search module implements it). */
export type SelectByCriterion = (caller: Caller, criterion: unknown, limit: number) => string[];

export function resolveSelector(caller: Caller, selector: AssetSelector, byCriterion: SelectByCriterion): string[] {
  if (selector.type === 'BY_IDS') return [...new Set(selector.assetIds)];
  if (selector.criterion === undefined) throw new ServiceError('INVALID_CRITERION', 'selector.criterion is required with type BY_CRITERION.');
  const ids = byCriterion(caller, selector.criterion, MAX_SELECTED_ASSETS + 1);
  if (ids.length > MAX_SELECTED_ASSETS) {
    throw new ServiceError('INVALID_BODY', `The criterion selects more than ${MAX_SELECTED_ASSETS} assets; split the job into narrower criteria.`);
  }
  return ids;
}

/**
 * V1 bodies carried `criterion` at the top level (SERVICE-SPEC §9): answer with the V2 shape instead
 * of a generic "selector is required".
 */
export function refuseV1Criterion(raw: unknown): void {
  if (typeof raw === 'object' && raw !== null && 'criterion' in raw && !('selector' in raw)) {
    throw new ServiceError('UNSUPPORTED_V1_NAME', 'A top-level "criterion" is the V1 form; send "selector": {"type": "BY_CRITERION", "criterion": …} (API version 2).');
  }
}

/** The stored input of every selector-based job: the resolved ids plus what the job does to each. */
export interface SelectedInput<T> {
  assetIds: string[];
  action: T;
}

export function selectedItems<T>(input: SelectedInput<T>): { key: string; item: string }[] {
  return input.assetIds.map((id) => ({ key: id, item: id }));
}

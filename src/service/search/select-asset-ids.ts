/**
 * Criterion → asset ids, for batch-job selectors (`{type: "BY_CRITERION", criterion}`, SERVICE-SPEC §2.9):
 * the same compiler and default LIVE filter as searches, ordered by asset id, at most `limit` ids.
 * Messages name `selector.criterion`. Read-only.
 */
import type { ServiceContext } from '../context.js';
import type { Caller } from '../http/request-auth.js';
import { ASSETS_FROM, compileAssetQuery } from './asset-query.js';
import { searchAccount } from './search-account.js';

export type AssetIdSelector = (caller: Caller, criterion: unknown, limit: number) => string[];

export function assetIdSelector(ctx: ServiceContext): AssetIdSelector {
  return (who, criterion, limit) => {
    const query = compileAssetQuery(searchAccount(ctx.fields, who), criterion, [], { criterion: 'selector.criterion' });
    const sql = `SELECT a.id FROM ${ASSETS_FROM} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT @limit`;
    return ctx.db.prepare<[Record<string, unknown>], string>(sql).pluck().all({ ...query.params, limit });
  };
}

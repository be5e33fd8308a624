/**
 * The share search language [ours] (asset shares and collection shares alike): MATCH_ALL, AND / OR /
 * NOT, and `FIELD_EQUALS {field, value}` on ID, SLUG (any slug the share ever had), ACCESS, CREATED_BY,
 * ASSET_ID (asset shares), COLLECTION_ID (collection shares) and STATUS (`ACTIVE` or `EXPIRED`). Sorts on
 * DATE_CREATED, EXPIRES_AT (shares that never expire come last ascending) and SLUG. Shares are few per
 * account, so they are filtered in memory.
 */
import { z } from 'zod';
import { requiredByHandler } from '../http/null-as-absent.js';
import { withinCriterionLimits } from '../search/criterion-limits.js';

export const SHARE_SEARCH_FIELDS = ['ID', 'SLUG', 'ACCESS', 'CREATED_BY', 'ASSET_ID', 'COLLECTION_ID', 'STATUS'] as const;
export type ShareSearchField = (typeof SHARE_SEARCH_FIELDS)[number];

export type ShareCriterion =
  | { type: 'MATCH_ALL' }
  | { type: 'AND' | 'OR'; criteria: ShareCriterion[] }
  | { type: 'NOT'; criterion: ShareCriterion }
  | { type: 'FIELD_EQUALS'; field: ShareSearchField; value: string };

export const shareCriterion: z.ZodType<ShareCriterion> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('MATCH_ALL') }),
    z.object({ type: z.enum(['AND', 'OR']), criteria: z.array(shareCriterion).min(1).max(50) }),
    z.object({ type: z.literal('NOT'), criterion: shareCriterion }),
    z.object({ type: z.literal('FIELD_EQUALS'), field: z.enum(SHARE_SEARCH_FIELDS), value: z.string().max(1000) }),
  ]),
);

export const SHARE_SORT_FIELDS = ['DATE_CREATED', 'EXPIRES_AT', 'SLUG'] as const;

export const shareSearchBody = z.object({
  from: z.number().int().min(0).optional(),
  pageSize: z.number().int().min(0).max(1000).optional(),
  criterion: requiredByHandler(withinCriterionLimits(shareCriterion)),
  sorts: requiredByHandler(z.array(z.object({ field: z.enum(SHARE_SORT_FIELDS), order: z.enum(['ASC', 'DESC']).optional() })).max(3)),
});

/** The values of one share for each search field (several for SLUG and ASSET_ID). */
export type ShareFacts = Record<ShareSearchField, readonly string[]>;

export function matchesShare(criterion: ShareCriterion, facts: ShareFacts): boolean {
  switch (criterion.type) {
    case 'MATCH_ALL':
      return true;
    case 'AND':
      return criterion.criteria.every((inner) => matchesShare(inner, facts));
    case 'OR':
      return criterion.criteria.some((inner) => matchesShare(inner, facts));
    case 'NOT':
      return !matchesShare(criterion.criterion, facts);
    case 'FIELD_EQUALS':
      return facts[criterion.field].includes(criterion.value);
  }
}

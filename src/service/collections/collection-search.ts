/**
 * The collection search language [ours beyond ASSOCIATED_WITH_USER, SERVICE-SPEC §4.2]: MATCH_ALL,
 * AND / OR / NOT, `ASSOCIATED_WITH_USER {userId}` (collections the user owns or collaborates on) and
 * `FIELD_EQUALS {field: "ID"|"NAME"|"OWNER_ID", value}` (NAME ignores case). Sorts on NAME,
 * DATE_CREATED or DATE_LAST_MODIFIED. An account has at most thousands of collections, and each must be
 * checked for visibility anyway, so they are filtered in memory rather than compiled to SQL.
 */
import { z } from 'zod';
import { requiredByHandler } from '../http/null-as-absent.js';
import { withinCriterionLimits } from '../search/criterion-limits.js';

export type CollectionCriterion =
  | { type: 'MATCH_ALL' }
  | { type: 'AND' | 'OR'; criteria: CollectionCriterion[] }
  | { type: 'NOT'; criterion: CollectionCriterion }
  | { type: 'ASSOCIATED_WITH_USER'; userId: string }
  | { type: 'FIELD_EQUALS'; field: 'ID' | 'NAME' | 'OWNER_ID'; value: string };

export const collectionCriterion: z.ZodType<CollectionCriterion> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('MATCH_ALL') }),
    z.object({ type: z.enum(['AND', 'OR']), criteria: z.array(collectionCriterion).min(1).max(50) }),
    z.object({ type: z.literal('NOT'), criterion: collectionCriterion }),
    z.object({ type: z.literal('ASSOCIATED_WITH_USER'), userId: z.string().min(1).max(200) }),
    z.object({ type: z.literal('FIELD_EQUALS'), field: z.enum(['ID', 'NAME', 'OWNER_ID']), value: z.string().max(1000) }),
  ]),
);

export const COLLECTION_SORT_FIELDS = ['NAME', 'DATE_CREATED', 'DATE_LAST_MODIFIED'] as const;

/** `criterion` and `sorts` are required, as on every search [real]; the route reports them missing. */
export const collectionSearchBody = z.object({
  from: z.number().int().min(0).optional(),
  pageSize: z.number().int().min(0).max(1000).optional(),
  criterion: requiredByHandler(withinCriterionLimits(collectionCriterion)),
  sorts: requiredByHandler(z.array(z.object({ field: z.enum(COLLECTION_SORT_FIELDS), order: z.enum(['ASC', 'DESC']).optional() })).max(3)),
});

/** What the criterion needs to know of one collection. */
export interface CollectionFacts {
  id: string;
  name: string;
  ownerId: string;
  collaboratorIds: readonly string[];
}

export function matchesCollection(criterion: CollectionCriterion, facts: CollectionFacts): boolean {
  switch (criterion.type) {
    case 'MATCH_ALL':
      return true;
    case 'AND':
      return criterion.criteria.every((inner) => matchesCollection(inner, facts));
    case 'OR':
      return criterion.criteria.some((inner) => matchesCollection(inner, facts));
    case 'NOT':
      return !matchesCollection(criterion.criterion, facts);
    case 'ASSOCIATED_WITH_USER':
      return facts.ownerId === criterion.userId || facts.collaboratorIds.includes(criterion.userId);
    case 'FIELD_EQUALS':
      if (criterion.field === 'NAME') return facts.name.toLowerCase() === criterion.value.toLowerCase();
      return (criterion.field === 'ID' ? facts.id : facts.ownerId) === criterion.value;
  }
}

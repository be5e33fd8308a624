/**
 * Quotas per account and entity (SERVICE-SPEC §4.3 lists the entity ids): a default per entity, an
 * override staff may set, and a check run before a create so a request over the quota is refused whole
 * (`403 QUOTA_EXCEEDED`) with nothing created. Enforced: fields, field options, collections, shares,
 * portals, guest uploads, groups, saved searches and comments before their create routes; users in
 * `asset-sync user add` (cli/user-admin.ts), the one way to add a member. The rest
 * (preset sizes, embeddable links, embedded data mappings) have no entity here to count: presets are
 * installation-wide, and the other two are not built (docs/api.md).
 */
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';

export const QUOTA_ENTITIES = [
  'user', 'guestUpload', 'portal', 'savedSearch', 'presetSize', 'group', 'comment', 'assetShare', 'embeddableLink', 'embeddedDataMapping', 'field', 'fieldOption', 'collection',
] as const;
export type QuotaEntity = (typeof QUOTA_ENTITIES)[number];

export const DEFAULT_QUOTAS: Record<QuotaEntity, number> = {
  user: 1_000, guestUpload: 100, portal: 100, savedSearch: 1_000, presetSize: 100, group: 200, comment: 1_000_000, assetShare: 10_000,
  embeddableLink: 10_000, embeddedDataMapping: 100, field: 500, fieldOption: 100_000, collection: 10_000,
};

/** SQL counting an account's entities, for the ones that live on this branch. */
const COUNTS: Partial<Record<QuotaEntity, string>> = {
  field: 'SELECT count(*) AS n FROM fields WHERE account_id = ?',
  fieldOption: 'SELECT count(*) AS n FROM field_options WHERE account_id = ?',
  user: 'SELECT count(*) AS n FROM memberships WHERE account_id = ?',
  // Collaboration entities; asset and collection shares both count as `assetShare` (one table, one quota).
  collection: 'SELECT count(*) AS n FROM collections WHERE account_id = ?',
  assetShare: 'SELECT count(*) AS n FROM shares WHERE account_id = ?',
  portal: 'SELECT count(*) AS n FROM portals WHERE account_id = ?',
  guestUpload: 'SELECT count(*) AS n FROM guest_uploads WHERE account_id = ?',
  group: 'SELECT count(*) AS n FROM groups WHERE account_id = ?',
  savedSearch: 'SELECT count(*) AS n FROM saved_searches WHERE account_id = ?',
  comment: 'SELECT count(*) AS n FROM comments WHERE account_id = ?',
};

/** The create routes of one entity each, checked for one more before their handler runs. */
export const CREATE_ROUTES: Readonly<Record<string, QuotaEntity>> = {
  '/fields': 'field',
  '/collections': 'collection',
  '/asset-shares': 'assetShare',
  '/collection-shares': 'assetShare',
  '/portals': 'portal',
  '/guest-uploads': 'guestUpload',
  '/groups': 'group',
  '/saved-searches': 'savedSearch',
  '/assets/:id/comments': 'comment',
};

export function isQuotaEntity(name: string): name is QuotaEntity {
  return (QUOTA_ENTITIES as readonly string[]).includes(name);
}

export function quotas(db: Db) {
  const override = db.prepare<[string, string], { quota: number }>('SELECT quota FROM quota_overrides WHERE account_id = ? AND entity = ?');
  const setOverride = db.prepare('INSERT INTO quota_overrides (account_id, entity, quota) VALUES (?, ?, ?) ON CONFLICT (account_id, entity) DO UPDATE SET quota = excluded.quota');
  const clearOverride = db.prepare('DELETE FROM quota_overrides WHERE account_id = ? AND entity = ?');
  const limit = (accountId: string, entity: QuotaEntity): number => override.get(accountId, entity)?.quota ?? DEFAULT_QUOTAS[entity];
  const used = (accountId: string, entity: QuotaEntity): number | null => {
    const sql = COUNTS[entity];
    return sql === undefined ? null : (db.prepare<[string], { n: number }>(sql).get(accountId)?.n ?? 0);
  };
  return {
    limit,
    used,
    override: (accountId: string, entity: QuotaEntity) => override.get(accountId, entity)?.quota ?? null,
    setOverride: (accountId: string, entity: QuotaEntity, quota: number | null) => (quota === null ? clearOverride.run(accountId, entity) : setOverride.run(accountId, entity, quota)),
    /** Throws 403 QUOTA_EXCEEDED unless `adding` more fit; `current` for entities counted elsewhere. */
    check(accountId: string, entity: QuotaEntity, adding: number, current?: number): void {
      const count = current ?? used(accountId, entity) ?? 0;
      const quota = limit(accountId, entity);
      if (count + adding > quota) throw new ServiceError('QUOTA_EXCEEDED', `The account has ${count} of its ${quota} ${entity} quota; ${adding} more do not fit. Nothing was created.`);
    },
  };
}

export type Quotas = ReturnType<typeof quotas>;

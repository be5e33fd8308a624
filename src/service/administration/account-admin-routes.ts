/**
 * The authenticated "coming soon" endpoints of SERVICE-SPEC §4.3: account security, allowed login
 * methods, auto-tagging and text-in-image settings, storefront SKUs, the onboarding checklist (ticked
 * from real counts), account terms and conditions (GET without a token), staff members and quota
 * overrides. Staff endpoints (staff members, quota overrides) are for staff, or for an admin of the
 * installation's own account until staff exist. Quotas are enforced before creates (quotas.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import { LOCAL_SUBDOMAIN } from '../bootstrap.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { accountSettings, SETTINGS, type SettingName } from './account-settings.js';
import { CREATE_ROUTES, isQuotaEntity, QUOTA_ENTITIES, quotas } from './quotas.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const quotaParams = z.object({ accountId: z.string().min(1).max(200), id: z.string().min(1).max(100) });
const quotaBody = z.object({ quota: z.number().int().min(0).nullable() });
const termsBody = z.object({ text: z.string().min(1).max(100_000), acceptanceRequired: z.boolean().default(false) });
const staffBody = z.object({ email: z.string().trim().max(320) });
const SECURITY_SETTINGS: ReadonlySet<SettingName> = new Set(['account-security', 'allowed-login-methods']);
const bodies = {
  security: SETTINGS['account-security'].shape,
  loginMethods: SETTINGS['allowed-login-methods'].shape,
  autoTagging: SETTINGS['auto-tagging-image-settings'].shape.partial(),
  textInImage: SETTINGS['text-in-image-settings'].shape.partial(),
  storefront: SETTINGS['storefront-sku-settings'].shape,
  onboarding: SETTINGS['onboarding-checklist'].shape.partial(),
};

export function registerAccountAdminRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const settings = accountSettings(db);
  const limits = quotas(db);
  const admin = (request: FastifyRequest): Caller => {
    const who = caller(request);
    requireAccountAction(who.role, 'ACCOUNT', 'MANAGE');
    return who;
  };
  const isStaff = db.prepare<[string], { user_id: string }>('SELECT user_id FROM staff_members WHERE user_id = ?');
  const staffCount = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM staff_members');
  const staff = (request: FastifyRequest): Caller => {
    const who = caller(request);
    const installationAdmin = (staffCount.get()?.n ?? 0) === 0 && who.role === 'admin' && ctx.accounts.byId(who.accountId)?.subdomain === LOCAL_SUBDOMAIN;
    if (isStaff.get(who.userId) === undefined && !installationAdmin) throw new ServiceError('FORBIDDEN', 'Only staff members may do this.');
    return who;
  };

  // A field id the auto-tagging settings name must be the caller's account's: another account's id is
  // refused like an unknown one (it would otherwise be stored, and echoed back, as if it were valid).
  const ownField = (who: Caller, given: { targetFieldId?: unknown }): void => {
    const { targetFieldId } = given;
    if (typeof targetFieldId === 'string' && ctx.fields.get(who.accountId, targetFieldId) === undefined) {
      throw new ServiceError('INVALID_BODY', `targetFieldId: no field "${targetFieldId}" in this account.`);
    }
  };

  // A change to the account's security settings retires every access token issued for the account
  // (token generation, auth/session-members.ts); refresh then re-checks each session against the new rules.
  const store = (accountId: string, name: SettingName, value: unknown): void =>
    db.transaction(() => {
      const before = JSON.stringify(settings.get(accountId, name));
      settings.set(accountId, name, value);
      if (SECURITY_SETTINGS.has(name) && JSON.stringify(settings.get(accountId, name)) !== before) ctx.sessions.bumpAccount(accountId);
    })();

  // Settings read by any member, replaced (PUT) or merged (PATCH) by admins.
  const setting = (path: string, name: SettingName, method: 'put' | 'patch', body: z.ZodObject) => {
    app.get(path, async (request) => envelope(settings.get(caller(request).accountId, name)));
    app[method](path, { config: { body } }, async (request) => {
      const who = admin(request);
      const given = parseBody(request, body);
      const current = settings.get(who.accountId, name);
      const next = method === 'patch' && typeof current === 'object' ? { ...current, ...given } : given;
      if (name === 'auto-tagging-image-settings') ownField(who, given);
      store(who.accountId, name, SETTINGS[name].shape.parse(next));
      return envelope(settings.get(who.accountId, name));
    });
  };
  setting('/account-security', 'account-security', 'put', bodies.security);
  setting('/auto-tagging-image-settings', 'auto-tagging-image-settings', 'patch', bodies.autoTagging);
  setting('/text-in-image-settings', 'text-in-image-settings', 'patch', bodies.textInImage);
  setting('/storefront-sku-settings', 'storefront-sku-settings', 'put', bodies.storefront);
  app.delete('/storefront-sku-settings', async (request) => {
    const who = admin(request);
    settings.set(who.accountId, 'storefront-sku-settings', undefined);
    return envelope(settings.get(who.accountId, 'storefront-sku-settings'));
  });
  app.put('/allowed-login-methods', { config: { body: bodies.loginMethods } }, async (request) => {
    const who = admin(request);
    const body = parseBody(request, bodies.loginMethods);
    store(who.accountId, 'allowed-login-methods', { methods: [...new Set(body.methods)] });
    return envelope(settings.get(who.accountId, 'allowed-login-methods'));
  });

  // The checklist ticks itself from what the account has really done.
  const done = (sql: string, accountId: string): boolean => (db.prepare<[string], { n: number }>(sql).get(accountId)?.n ?? 0) > 0;
  const checklist = (accountId: string) => ({
    dismissed: settings.onboardingDismissed(accountId),
    items: [
      { id: 'CREATE_FIELD', done: done('SELECT count(*) AS n FROM fields WHERE account_id = ? AND role IS NULL', accountId) },
      { id: 'CREATE_FOLDER', done: done("SELECT count(*) AS n FROM field_options o JOIN fields f ON f.id = o.field_id WHERE o.account_id = ? AND f.role = 'FOLDERS'", accountId) },
      { id: 'UPLOAD_ASSET', done: done('SELECT count(*) AS n FROM asset_files WHERE account_id = ?', accountId) },
      { id: 'DOWNLOAD_ASSET', done: done('SELECT count(*) AS n FROM download_events WHERE account_id = ?', accountId) },
      { id: 'INVITE_USER', done: (db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM memberships WHERE account_id = ?').get(accountId)?.n ?? 0) > 1 },
    ],
  });
  app.get('/onboarding-checklist', async (request) => envelope(checklist(caller(request).accountId)));
  app.patch('/onboarding-checklist', { config: { body: bodies.onboarding } }, async (request) => {
    const who = admin(request);
    const body = parseBody(request, bodies.onboarding);
    if (body.dismissed !== undefined) settings.set(who.accountId, 'onboarding-checklist', { dismissed: body.dismissed });
    return envelope(checklist(who.accountId));
  });

  // Terms and conditions: one per account, its id the account's id; readable before sign-in.
  const termsOf = db.prepare<[string], { account_id: string; text: string; acceptance_required: number; version: number; date_updated: string }>('SELECT * FROM account_terms WHERE account_id = ?');
  const upsertTerms = db.prepare(
    `INSERT INTO account_terms (account_id, text, acceptance_required, version, date_updated) VALUES (@account_id, @text, @acceptance_required, 1, @date_updated)
     ON CONFLICT (account_id) DO UPDATE SET text = excluded.text, acceptance_required = excluded.acceptance_required, version = version + 1, date_updated = excluded.date_updated`,
  );
  const deleteTerms = db.prepare('DELETE FROM account_terms WHERE account_id = ?');
  const renderTerms = (id: string) => {
    const row = termsOf.get(id);
    if (row === undefined) throw notFound('terms and conditions', id);
    return { id: row.account_id, text: row.text, acceptanceRequired: row.acceptance_required === 1, version: row.version, dateUpdated: row.date_updated };
  };
  const ownTerms = (request: FastifyRequest): { who: Caller; id: string } => {
    const who = admin(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    if (id !== who.accountId) throw notFound('terms and conditions', id);
    return { who, id };
  };
  app.get('/account-terms-and-conditions/:id', { config: { public: true } }, async (request) => envelope(renderTerms(parseInput(idParams, request.params, 'INVALID_PATH').id)));
  app.put('/account-terms-and-conditions/:id', { config: { body: termsBody } }, async (request) => {
    const { id } = ownTerms(request);
    const body = parseBody(request, termsBody);
    upsertTerms.run({ account_id: id, text: body.text, acceptance_required: body.acceptanceRequired ? 1 : 0, date_updated: ctx.nowIso() });
    return envelope(renderTerms(id));
  });
  app.delete('/account-terms-and-conditions/:id', async (request) => {
    const { id } = ownTerms(request);
    const terms = renderTerms(id);
    deleteTerms.run(id);
    return envelope(terms);
  });

  // Staff members: installation-wide users who may sign in to any account.
  const staffList = db.prepare<[], { id: string; email: string; date_added: string }>('SELECT u.id, u.email, s.date_added FROM staff_members s JOIN users u ON u.id = s.user_id ORDER BY u.email');
  const addStaff = db.prepare('INSERT OR IGNORE INTO staff_members (user_id, date_added) VALUES (?, ?)');
  const removeStaff = db.prepare('DELETE FROM staff_members WHERE user_id = ?');
  const renderStaff = (row: { id: string; email: string; date_added: string }) => ({ id: row.id, email: row.email, dateAdded: row.date_added });
  app.get('/staff-members', async (request) => {
    staff(request);
    const rows = staffList.all();
    return { results: rows.map((row) => envelope(renderStaff(row))), totalResults: rows.length };
  });
  app.post('/staff-members', { config: { body: staffBody } }, async (request) => {
    staff(request);
    const { email } = parseBody(request, staffBody);
    const user = ctx.accounts.userByEmail(email);
    if (user === undefined) throw notFound('user with email', email);
    addStaff.run(user.id, ctx.nowIso());
    const row = staffList.all().find((entry) => entry.id === user.id);
    if (row === undefined) throw new ServiceError('INTERNAL', 'The staff member was not stored.');
    return envelope(renderStaff(row));
  });
  app.delete('/staff-members/:id', async (request) => {
    staff(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const row = staffList.all().find((entry) => entry.id === id);
    if (row === undefined) throw notFound('staff member', id);
    removeStaff.run(id);
    return envelope(renderStaff(row));
  });

  // Quota overrides, per account and entity id.
  const quotaOf = (request: FastifyRequest) => {
    staff(request);
    const { accountId, id } = parseInput(quotaParams, request.params, 'INVALID_PATH');
    if (ctx.accounts.byId(accountId) === undefined) throw notFound('account', accountId);
    if (!isQuotaEntity(id)) throw new ServiceError('INVALID_PATH', `Unknown quota entity "${id}"; expected one of ${QUOTA_ENTITIES.join(', ')}.`);
    return { accountId, entity: id };
  };
  const renderQuota = (accountId: string, entity: (typeof QUOTA_ENTITIES)[number]) => ({
    accountId,
    entityId: entity,
    override: limits.override(accountId, entity),
    quota: limits.limit(accountId, entity),
    used: limits.used(accountId, entity),
  });
  app.get('/admin/accounts/:accountId/entities/:id/quota-override', async (request) => {
    const { accountId, entity } = quotaOf(request);
    return envelope(renderQuota(accountId, entity));
  });
  app.put('/admin/accounts/:accountId/entities/:id/quota-override', { config: { body: quotaBody } }, async (request) => {
    const { accountId, entity } = quotaOf(request);
    limits.setOverride(accountId, entity, parseBody(request, quotaBody).quota);
    return envelope(renderQuota(accountId, entity));
  });

  // Enforcement: refused before the handler runs, so an over-quota request creates nothing at all.
  app.addHook('preHandler', async (request) => {
    const who = request.caller;
    if (who === null || request.method !== 'POST') return;
    const entity = CREATE_ROUTES[request.routeOptions.url ?? ''];
    if (entity !== undefined) limits.check(who.accountId, entity, 1);
    if (request.routeOptions.url === '/field-option-batches') {
      const items: unknown = typeof request.body === 'object' && request.body !== null && 'items' in request.body ? request.body.items : undefined;
      limits.check(who.accountId, 'fieldOption', Array.isArray(items) ? items.length : 0);
    }
  });
}

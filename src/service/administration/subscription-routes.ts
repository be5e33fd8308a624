/**
 * Subscriptions (SERVICE-SPEC §4.2) [ours: bodies]. A subscription starts from an intent: `POST
 * /subscription-intents {plan, tier}` (PENDING), then `PATCH /subscription-intents/{id} {status:
 * "CONFIRMED"}` makes it the account's subscription (replacing any), or `"CANCELLED"` drops it.
 * `GET | DELETE /subscription`; `GET /subscription-usage` (six periods, subscription-usage.ts);
 * `GET /subscription-estimate` prices the current period's usage with the plan's price list. Admins only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { billingPeriods, usageOf, type Plan, type UsageBucket } from './subscription-usage.js';

const GIB = 1024 ** 3;

/** Price lists in euro cents [ours]: a base price with allowances, then a price per unit beyond them. */
interface Price {
  base: number;
  assets: number;
  storageGib: number;
  perAsset: number;
  perGib: number;
  perDownload: number;
}
export const PRICE_LISTS: Record<Plan, Record<string, Price>> = {
  TIERED: {
    STARTER: { base: 4_900, assets: 1_000, storageGib: 50, perAsset: 2, perGib: 20, perDownload: 0 },
    GROWTH: { base: 14_900, assets: 10_000, storageGib: 500, perAsset: 1, perGib: 10, perDownload: 0 },
  },
  VALUE_BASED: {
    STANDARD: { base: 9_900, assets: 5_000, storageGib: 200, perAsset: 1, perGib: 10, perDownload: 1 },
  },
};

const plans = z.discriminatedUnion('plan', [
  z.object({ plan: z.literal('TIERED'), tier: z.enum(['STARTER', 'GROWTH']) }),
  z.object({ plan: z.literal('VALUE_BASED'), tier: z.literal('STANDARD') }),
]);
const intentPatch = z.object({ status: z.enum(['CONFIRMED', 'CANCELLED']) });
const idParams = z.object({ id: z.string().min(1).max(200) });

interface SubscriptionRow {
  account_id: string;
  plan: Plan;
  tier: string;
  date_started: string;
}
interface IntentRow {
  id: string;
  account_id: string;
  plan: Plan;
  tier: string;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED';
  date_created: string;
  date_updated: string;
}

function priceOf(plan: Plan, tier: string): Price {
  const price = PRICE_LISTS[plan][tier];
  if (price === undefined) throw new ServiceError('INTERNAL', `No price list for ${plan}/${tier}.`);
  return price;
}

/** The amount for one period's usage, with one line per charge. */
export function estimate(plan: Plan, tier: string, usage: UsageBucket) {
  const price = priceOf(plan, tier);
  const extraAssets = Math.max(0, usage.assets - price.assets);
  const extraGib = Math.max(0, Math.ceil(usage.storageBytes / GIB) - price.storageGib);
  const lines = [
    { description: `${plan} ${tier} base price`, amountCents: price.base },
    { description: `${extraAssets} assets beyond ${price.assets}`, amountCents: extraAssets * price.perAsset },
    { description: `${extraGib} GiB beyond ${price.storageGib} GiB`, amountCents: extraGib * price.perGib },
    { description: `${usage.downloads} downloads`, amountCents: usage.downloads * price.perDownload },
  ];
  return { currency: 'EUR', amountCents: lines.reduce((sum, line) => sum + line.amountCents, 0), lines };
}

export function registerSubscriptionRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const subscriptionOf = db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE account_id = ?');
  const upsert = db.prepare(
    'INSERT INTO subscriptions (account_id, plan, tier, date_started) VALUES (?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET plan = excluded.plan, tier = excluded.tier, date_started = excluded.date_started',
  );
  const remove = db.prepare('DELETE FROM subscriptions WHERE account_id = ?');
  const intentOf = db.prepare<[string, string], IntentRow>('SELECT * FROM subscription_intents WHERE account_id = ? AND id = ?');
  const insertIntent = db.prepare('INSERT INTO subscription_intents (id, account_id, plan, tier, status, date_created, date_updated) VALUES (@id, @account_id, @plan, @tier, @status, @date_created, @date_updated)');
  const setStatus = db.prepare('UPDATE subscription_intents SET status = ?, date_updated = ? WHERE id = ?');

  const admin = (request: FastifyRequest): Caller => {
    const who = caller(request);
    requireAccountAction(who.role, 'ACCOUNT', 'MANAGE');
    return who;
  };
  const current = (accountId: string): SubscriptionRow => {
    const row = subscriptionOf.get(accountId);
    if (row === undefined) throw new ServiceError('NO_SUBSCRIPTION');
    return row;
  };
  const render = (row: SubscriptionRow) => ({ plan: row.plan, tier: row.tier, dateStarted: row.date_started, price: priceOf(row.plan, row.tier) });
  const renderIntent = (row: IntentRow) => ({ id: row.id, plan: row.plan, tier: row.tier, status: row.status, dateCreated: row.date_created, dateUpdated: row.date_updated });
  const loadIntent = (accountId: string, request: FastifyRequest): IntentRow => {
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const row = intentOf.get(accountId, id);
    if (row === undefined) throw notFound('subscription intent', id);
    return row;
  };

  app.get('/subscription', async (request) => envelope(render(current(admin(request).accountId))));

  app.delete('/subscription', async (request) => {
    const who = admin(request);
    const row = current(who.accountId);
    remove.run(who.accountId);
    return envelope(render(row));
  });

  app.get('/subscription-usage', async (request) => {
    const row = current(admin(request).accountId);
    const buckets = usageOf(db, row.account_id, billingPeriods(row.plan, row.date_started, ctx.clock.now(), 6));
    return envelope({ plan: row.plan, bucketing: row.plan === 'TIERED' ? 'CALENDAR_MONTH' : 'BILLING_MONTH', buckets });
  });

  app.get('/subscription-estimate', async (request) => {
    const row = current(admin(request).accountId);
    const [usage] = usageOf(db, row.account_id, billingPeriods(row.plan, row.date_started, ctx.clock.now(), 1));
    if (usage === undefined) throw new ServiceError('INTERNAL', 'No current billing period.');
    return envelope({ plan: row.plan, tier: row.tier, usage, ...estimate(row.plan, row.tier, usage) });
  });

  app.post('/subscription-intents', { config: { body: plans } }, async (request) => {
    const who = admin(request);
    const body = parseBody(request, plans);
    const now = ctx.nowIso();
    const row: IntentRow = { id: timeOrderedUuid(), account_id: who.accountId, plan: body.plan, tier: body.tier, status: 'PENDING', date_created: now, date_updated: now };
    insertIntent.run(row);
    return envelope(renderIntent(row));
  });

  app.get('/subscription-intents/:id', async (request) => envelope(renderIntent(loadIntent(admin(request).accountId, request))));

  app.patch('/subscription-intents/:id', { config: { body: intentPatch } }, async (request) => {
    const who = admin(request);
    const row = loadIntent(who.accountId, request);
    const { status } = parseBody(request, intentPatch);
    if (row.status !== 'PENDING') throw new ServiceError('SUBSCRIPTION_INTENT_CLOSED', `The intent is ${row.status} already.`);
    const now = ctx.nowIso();
    db.transaction(() => {
      setStatus.run(status, now, row.id);
      if (status === 'CONFIRMED') upsert.run(who.accountId, row.plan, row.tier, now);
    })();
    return envelope(renderIntent({ ...row, status, date_updated: now }));
  });
}

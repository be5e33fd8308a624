/**
 * `GET /staff-sign-ins?from&pageSize` [ours]: the account's admins see every time a staff member of the
 * installation signed in to their account (staff-sign-ins.ts), newest first. Staff work in an account
 * as admins without being its members, so this record is how the account knows they were there.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { requireAccountAction } from '../auth/permissions.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller } from '../http/request-auth.js';
import { staffSignIns } from './staff-sign-ins.js';

const listQuery = z.object({
  from: z.coerce.number().int().min(0).max(10_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(1000).default(100),
});

export function registerStaffSignInRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const signIns = staffSignIns(ctx.db);
  app.get('/staff-sign-ins', async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'ACCOUNT', 'MANAGE');
    const { from, pageSize } = parseInput(listQuery, request.query, 'INVALID_QUERY');
    const rows = signIns.page(who.accountId, from, pageSize);
    return { results: rows.map((row) => envelope(row)), totalResults: signIns.count(who.accountId) };
  });
}

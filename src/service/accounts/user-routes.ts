/**
 * The users of the account (SERVICE-SPEC §4.2; bodies ours, docs/api.md "Users"): `GET /users/{id}` and
 * `POST /user-searches` (text in name or e-mail, membership of a group, paged, ordered by e-mail). Every
 * member may look, as they need to find colleagues for groups and comments; a user's groups are part
 * of the answer. Password hashes never leave the accounts repository's rows.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { User } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { permittedActions } from '../auth/permissions.js';
import { notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import type { MemberRow, Role } from './accounts-repo.js';

export interface AccountUser extends User {
  role: Role;
  groupIds: string[];
}

const idParams = z.object({ id: z.string().min(1).max(200) });
const searchBody = z.object({
  text: z.string().max(320).optional(),
  groupId: z.string().min(1).max(200).optional(),
  from: z.number().int().min(0).max(10_000).optional(),
  pageSize: z.number().int().min(1).max(1000).optional(),
});

export function registerUserRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const groupsOf = ctx.db.prepare<[string, string], string>(
    'SELECT m.group_id FROM group_members m JOIN groups g ON g.id = m.group_id WHERE m.user_id = ? AND g.account_id = ? ORDER BY g.name, g.id',
  ).pluck();
  const inGroup = ctx.db.prepare<[string, string], string>('SELECT user_id FROM group_members WHERE group_id = ? AND group_id IN (SELECT id FROM groups WHERE account_id = ?)').pluck();
  const toUser = (row: MemberRow): AccountUser => ({
    id: row.id,
    email: row.email,
    name: row.name,
    accountId: row.account_id,
    role: row.role,
    groupIds: groupsOf.all(row.id, row.account_id),
  });

  app.get('/users/:id', async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const member = ctx.accounts.membership(who.accountId, id);
    if (member === undefined) throw notFound('user', id);
    return envelope(toUser(member), permittedActions(who.role, 'USER', id));
  });

  app.post('/user-searches', { config: { body: searchBody } }, async (request) => {
    const who = caller(request);
    const body = parseBody(request, searchBody);
    const text = body.text?.trim().toLowerCase() ?? '';
    const members = body.groupId === undefined ? undefined : new Set(inGroup.all(body.groupId, who.accountId));
    const matching = ctx.accounts
      .members(who.accountId)
      .filter((row) => text === '' || row.email.toLowerCase().includes(text) || (row.name ?? '').toLowerCase().includes(text))
      .filter((row) => members === undefined || members.has(row.id));
    const from = body.from ?? 0;
    const page = matching.slice(from, from + (body.pageSize ?? 100));
    return { results: page.map((row) => envelope(toUser(row), permittedActions(who.role, 'USER', row.id))), totalResults: matching.length };
  });
}

/**
 * Groups (SERVICE-SPEC §4.2; bodies ours, docs/api.md "Groups"): list, create, get, patch, delete. Any
 * member of the account may look; only admins change groups, since a group's folders decide what its
 * members can reach (groups/folder-scope.ts). A change applies from the members' next request. A
 * folder-limited member is shown only the folders of a group they may see (groups/folder-policy.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { permittedActions, requireAccountAction, requireAction } from '../auth/permissions.js';
import { notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { groupChanges, groupInputSchema, newGroupSchema } from './group-changes.js';
import { groupsRepo, type GroupRecord } from './groups-repo.js';

const idParams = z.object({ id: z.string().min(1).max(200) });

export function registerGroupRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const groups = groupsRepo(ctx.db);
  const deps = { accounts: ctx.accounts, fields: ctx.fields, fieldOptions: ctx.fieldOptions, groups };
  /** The group as the caller sees it. */
  const shown = (who: Caller, group: GroupRecord): GroupRecord => ({ ...group, folderIds: ctx.folderPolicy.visibleFolderIds(who, group.folderIds) });
  const load = (accountId: string, params: unknown): GroupRecord => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const group = groups.get(accountId, id);
    if (group === undefined) throw notFound('group', id);
    return group;
  };

  app.get('/groups', async (request) => {
    const who = caller(request);
    const list = groups.list(who.accountId);
    return { results: list.map((group) => envelope(shown(who, group), permittedActions(who.role, 'GROUP', group.id))), totalResults: list.length };
  });

  app.post('/groups', { config: { body: newGroupSchema } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'GROUPS', 'CREATE_GROUPS');
    const input = parseBody(request, newGroupSchema);
    const id = ctx.db.transaction(() => groups.create(who.accountId, groupChanges(deps, who.accountId, undefined, input), ctx.nowIso()))();
    return envelope(load(who.accountId, { id }), permittedActions(who.role, 'GROUP', id));
  });

  app.get('/groups/:id', async (request) => {
    const who = caller(request);
    const group = load(who.accountId, request.params);
    return envelope(shown(who, group), permittedActions(who.role, 'GROUP', group.id));
  });

  app.patch('/groups/:id', { config: { body: groupInputSchema } }, async (request) => {
    const who = caller(request);
    const group = load(who.accountId, request.params);
    requireAction(who.role, 'GROUP', 'EDIT');
    const input = parseBody(request, groupInputSchema);
    ctx.db.transaction(() => groups.update(group.id, groupChanges(deps, who.accountId, group, input), ctx.nowIso()))();
    return envelope(load(who.accountId, { id: group.id }), permittedActions(who.role, 'GROUP', group.id));
  });

  app.delete('/groups/:id', async (request) => {
    const who = caller(request);
    const group = load(who.accountId, request.params);
    requireAction(who.role, 'GROUP', 'DELETE');
    groups.remove(group.id);
    return envelope(group);
  });
}

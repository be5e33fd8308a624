/**
 * `GET /current-user`: the caller and the account-wide actions their role allows, with their role and
 * whether they are staff working in the account rather than a member of it [ours].
 */
import type { FastifyInstance } from 'fastify';
import type { User } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { accountPermittedActions } from '../auth/permissions.js';
import { caller } from '../http/request-auth.js';

export function registerCurrentUserRoutes(app: FastifyInstance, _ctx: ServiceContext): void {
  app.get('/current-user', async (request) => {
    const who = caller(request);
    const user: User = { id: who.userId, email: who.email, name: who.name, accountId: who.accountId };
    return { result: { ...user, role: who.role, staff: who.staff }, permittedActions: accountPermittedActions(who.role) };
  });
}

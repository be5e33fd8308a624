/**
 * One POST (create) and GET (poll) pair per job kind. The body is validated completely at POST time, so
 * a malformed request is a 400 at once rather than a failed job later.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { notFound } from '../errors/service-error.js';
import { permittedActions } from '../auth/permissions.js';
import type { JobRunner } from './job-runner.js';
import { toJob, type JobsRepo } from './jobs-repo.js';

export interface JobKind<S extends z.ZodType> {
  /** e.g. `/asset-and-upload-batch-jobs` */
  path: string;
  /** Must match the handler registered with the runner. */
  type: string;
  body: S;
  /** Throws 403 (or 400 for checks that need the account) before the job is created. */
  authorize(caller: Caller, body: z.infer<S>): void;
}

const idParams = z.object({ id: z.string().min(1).max(200) });

export function registerJobKind<S extends z.ZodType>(app: FastifyInstance, ctx: ServiceContext, runner: JobRunner, jobs: JobsRepo, kind: JobKind<S>): void {
  app.post(kind.path, async (request) => {
    const who = caller(request);
    const body = parseInput(kind.body, request.body);
    kind.authorize(who, body);
    const row = jobs.create(who.accountId, who.userId, kind.type, body, ctx.nowIso());
    runner.kick();
    return envelope(toJob(row), permittedActions(who.role, 'JOB', row.id));
  });

  app.get(`${kind.path}/:id`, async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const row = jobs.get(who.accountId, id);
    if (row?.type !== kind.type) throw notFound('job', id);
    return envelope(toJob(row), permittedActions(who.role, 'JOB', row.id));
  });
}

/**
 * One POST (create) and GET (poll) pair per job kind. The body is validated completely at POST time, so
 * a malformed request is a 400 at once rather than a failed job later. The creation, and a poll of an
 * unfinished job, are held until the job moves (a chunk done, or the end) or JOB_POLL_HOLD_MS pass: a client polling
 * often learns of the end at once without spending the service's CPU on answers that say nothing new
 * (a download job's renditions measured 0.7 of sharp alone against a client polling every 5 ms, with a
 * poll costing ~4 ms of CPU on a 2-core machine), and one backing off still hears of the end at once.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller, type Caller } from '../http/request-auth.js';
import { notFound } from '../errors/service-error.js';
import { permittedActions } from '../auth/permissions.js';
import type { JobRunner } from './job-runner.js';
import { toJob, type JobRow, type JobsRepo } from './jobs-repo.js';
import type { Job } from '../../shared/api/resources.js';

export interface JobKind<S extends z.ZodType> {
  /** e.g. `/asset-and-upload-batch-jobs` */
  path: string;
  /** Must match the handler registered with the runner. */
  type: string;
  body: S;
  /** Looks at the raw body before validation (e.g. to name the V2 form of a V1 body). */
  precheck?(raw: unknown): void;
  /** Throws 403 (or 400 for checks that need the account) before the job is created. */
  authorize(caller: Caller, body: z.infer<S>): void;
  /**
   * Turns the request into what the job stores and runs (default: the body as it came), e.g. a
   * criterion resolved to the asset ids it selects now, so a restart works through the same set.
   */
  prepare?(caller: Caller, body: z.infer<S>): unknown;
}

const idParams = z.object({ id: z.string().min(1).max(200) });

/** The longest a poll of an unfinished job is held waiting for it to move. */
export const JOB_POLL_HOLD_MS = 250;

export function registerJobKind<S extends z.ZodType>(app: FastifyInstance, ctx: ServiceContext, runner: JobRunner, jobs: JobsRepo, kind: JobKind<S>): void {
  app.post(kind.path, { config: { body: kind.body } }, async (request) => {
    const who = caller(request);
    kind.precheck?.(request.body);
    const body = parseBody(request, kind.body);
    kind.authorize(who, body);
    const input: unknown = kind.prepare === undefined ? body : kind.prepare(who, body);
    const created = jobs.create(who.accountId, who.userId, kind.type, input, ctx.nowIso());
    // Held like a poll [ours]: a job done in one go (most of a sync client's, a few items each) is
    // answered finished, and the client needs no poll at all; a longer one is answered as it stands
    // after its first move. Registered before the kick, so the move cannot come first.
    const moved = runner.nextMove(created.id, JOB_POLL_HOLD_MS);
    runner.kick();
    await moved;
    const row = jobs.get(who.accountId, created.id) ?? created;
    return envelope(answerOf(row, jobs), permittedActions(who.role, 'JOB', row.id));
  });

  app.get(`${kind.path}/:id`, async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const visible = (row: JobRow | undefined): JobRow => {
      // A job's results carry URLs signed with its creator's rights (part uploads, downloads), so only the
      // creator may read it; to anyone else it does not exist (API.md §1: 404 when not visible).
      if (row?.type !== kind.type || row.user_id !== who.userId) throw notFound('job', id);
      return row;
    };
    let row = visible(jobs.get(who.accountId, id));
    if (row.state === 'QUEUED' || row.state === 'RUNNING') {
      // Registered in the same turn as the read: a move between the two cannot be missed.
      await runner.nextMove(row.id, JOB_POLL_HOLD_MS);
      row = visible(jobs.get(who.accountId, id));
    }
    return envelope(answerOf(row, jobs), permittedActions(who.role, 'JOB', row.id));
  });
}

/**
 * The job as answered: an unfinished one says how long its polls are held (`pollHoldMs` [ours]), so a
 * client that sees it moved asks again at once instead of sleeping out its poll interval, and sees a
 * job's end (or an item) as soon as the hold wakes on it, not one interval later. A client without the field (or a service without it) polls as before.
 */
function answerOf(row: JobRow, jobs: JobsRepo): Job {
  const job = toJob(row, jobs.answerResults(row));
  if (row.state === 'QUEUED' || row.state === 'RUNNING') job.pollHoldMs = JOB_POLL_HOLD_MS;
  return job;
}

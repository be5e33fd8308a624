/**
 * Jobs (API.md §3): create one with a POST, then poll `GET {path}/{id}` with a growing interval until
 * it is COMPLETED or FAILED. A FAILED job becomes an ApiError; a completed one becomes a BatchOutcome
 * whose successes are checked against the item schema and whose failures are ApiErrors. Job states a
 * foreign server may spell differently are mapped onto the four documented ones.
 */
import { z } from 'zod';
import type { ErrorBody, Job, JobState } from '../../shared/api/resources.js';
import { ApiError, apiErrorFromBody } from './api-error.js';
import type { Requester } from './api-client.js';
import type { BatchOutcome } from './asset-api.js';
import { abortedError } from './with-retries.js';
import { parseAnswer, unwrapResult } from './wire-shapes.js';

export interface JobPollPolicy {
  /** The first wait before polling, ms. */
  initialMs: number;
  /** Waits grow by this factor… */
  factor: number;
  /** …up to this, ms… */
  maxMs: number;
  /**
   * …or up to this while the job moves (its progress or its successes grew since the poll before), ms:
   * a job reporting items as they are done is followed closely, and one that sits still is asked less
   * and less, so a job that ends just after a wait is not seen up to maxMs late.
   */
  movingMaxMs: number;
  /** A job still running after this long is given up on (JOB_TIMEOUT, retryable), ms. */
  timeoutMs: number;
}

export const DEFAULT_JOB_POLL: JobPollPolicy = { initialMs: 50, factor: 1.6, maxMs: 2000, movingMaxMs: 250, timeoutMs: 30 * 60_000 };

const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  timestamp: z.string().default(''),
  status: z.number().default(0),
  error: z.string().default(''),
  message: z.string().default(''),
  path: z.string().default(''),
  code: z.string().optional(),
});

function jobState(state: string | undefined, dateCompleted: string | null | undefined): JobState {
  switch (state?.toUpperCase()) {
    case 'COMPLETED':
    case 'COMPLETE':
    case 'SUCCEEDED':
    case 'SUCCESS':
    case 'DONE':
      return 'COMPLETED';
    case 'FAILED':
    case 'FAILURE':
    case 'ERROR':
      return 'FAILED';
    case 'QUEUED':
    case 'PENDING':
    case 'CREATED':
      return 'QUEUED';
    case undefined:
      return dateCompleted === undefined || dateCompleted === null ? 'RUNNING' : 'COMPLETED';
    default:
      return 'RUNNING';
  }
}

export const jobSchema: z.ZodType<Job> = z.preprocess(
  unwrapResult,
  z
    .object({
      id: z.string(),
      type: z.string().default(''),
      state: z.string().optional(),
      status: z.string().optional(),
      progress: z.number().default(0),
      dateCreated: z.string().default(''),
      dateCompleted: z.string().nullish(),
      successes: z.record(z.string(), z.unknown()).nullish(),
      failures: z.record(z.string(), errorBodySchema).nullish(),
      error: errorBodySchema.nullish(),
      result: z.unknown().optional(),
      pollHoldMs: z.number().nonnegative().optional(),
    })
    .transform((raw) => {
      const job: Job = {
        id: raw.id,
        type: raw.type,
        state: jobState(raw.state ?? raw.status, raw.dateCompleted),
        progress: raw.progress,
        dateCreated: raw.dateCreated,
        dateCompleted: raw.dateCompleted ?? null,
        successes: raw.successes ?? {},
        failures: raw.failures ?? {},
        error: raw.error ?? null,
      };
      if (raw.result !== undefined && raw.result !== null) job.result = raw.result;
      if (raw.pollHoldMs !== undefined) job.pollHoldMs = raw.pollHoldMs;
      return job;
    }),
);

export interface RunJobOptions<S> {
  /** e.g. `/asset-download-batch-jobs` */
  path: string;
  body: unknown;
  /** Each success item is checked against this (enveloped or bare). */
  success: z.ZodType<S>;
  /** Whether creating the job twice is harmless (false for jobs that create assets). */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
  /** Every state of the job seen, the created one and the last included (e.g. successes while it runs). */
  onPoll?: ((job: Job) => void) | undefined;
}

export async function runJob<S>(requester: Requester, policy: JobPollPolicy, options: RunJobOptions<S>): Promise<BatchOutcome<S>> {
  const { path, signal } = options;
  const created = parseAnswer(jobSchema, await requester.json({ method: 'POST', path, body: options.body, idempotent: options.idempotent, signal }), 'POST', path);
  const job = await pollJob(requester, policy, path, created, signal, options.onPoll);
  return outcomeOf(job, path, options.success);
}

/** How far a job has got: its progress and how many items it has reported. */
function advanceOf(job: Job): number {
  return job.progress + Object.keys(job.successes ?? {}).length + Object.keys(job.failures ?? {}).length;
}

/**
 * Polls until the job is finished, handing each state seen to `onPoll`; throws an ApiError when it
 * FAILED or runs past the policy's timeout.
 */
export async function pollJob(requester: Requester, policy: JobPollPolicy, path: string, job: Job, signal?: AbortSignal, onPoll?: (job: Job) => void): Promise<Job> {
  const { clock } = requester.context;
  const started = clock.now();
  const jobPath = `${path}/${encodeURIComponent(job.id)}`;
  let current = job;
  let wait = policy.initialMs;
  /** When the last request about the job (its creation, then each poll) was sent. */
  let asked = clock.now();
  /**
   * The next poll goes at once: the service holds polls [ours] (the job says `pollHoldMs`) and the
   * last answer showed the job moved, so that answer came early, woken by the move, and the next is
   * held until the move after it. Sleeping out the interval would leave the job's end (or an item)
   * unseen for up to movingMaxMs when it comes just after such an answer.
   */
  let atOnce = false;
  onPoll?.(current);
  while (current.state === 'QUEUED' || current.state === 'RUNNING') {
    if (clock.now() - started > policy.timeoutMs) {
      throw new ApiError({
        code: 'JOB_TIMEOUT',
        message: `Job ${job.id} (${path}) was still ${current.state} after ${Math.round(policy.timeoutMs / 1000)} s.`,
        retryable: true,
        method: 'GET',
        path: jobPath,
      });
    }
    try {
      // The wait runs from the start of the poll before: a service that holds a poll until the job
      // moves [ours] (docs/api.md) has already spent it, and is asked again at once, so an item made
      // during the wait is not left unseen for up to movingMaxMs. One that answers at once
      // (the hosted one) is asked as often as before.
      await clock.sleep(atOnce ? 0 : Math.max(0, wait - (clock.now() - asked)), signal);
    } catch {
      throw abortedError('GET', jobPath);
    }
    const before = advanceOf(current);
    asked = clock.now();
    current = parseAnswer(jobSchema, await requester.json({ method: 'GET', path: jobPath, signal }), 'GET', jobPath);
    // A poll answered only after movingMaxMs or more was, from our service, held until the job moved
    // or its hold ran out: it is followed closely, as a moving job is (each held poll costs that
    // service nothing while it waits). A still job is not backed off toward maxMs on a held poll's
    // account: a rendition made meanwhile would go unseen for up to 1.75 s.
    const held = clock.now() - asked >= policy.movingMaxMs;
    const moved = advanceOf(current) > before;
    atOnce = moved && current.pollHoldMs !== undefined && current.pollHoldMs > 0;
    wait = Math.min(moved || held ? Math.min(policy.movingMaxMs, policy.maxMs) : policy.maxMs, wait * policy.factor);
    if (current.state !== 'FAILED') onPoll?.(current);
  }
  if (current.state === 'FAILED') {
    throw apiErrorFromBody(current.error, { method: 'GET', path: jobPath, fallbackCode: 'JOB_FAILED', what: `Job ${current.id} (${path})` });
  }
  return current;
}

export function outcomeOf<S>(job: Job, path: string, success: z.ZodType<S>): BatchOutcome<S> {
  const jobPath = `${path}/${job.id}`;
  const successes: Record<string, S> = {};
  // Built once per job, not per item: making a zod schema costs far more than using it.
  const item = z.preprocess(unwrapResult, success);
  for (const [key, value] of Object.entries(job.successes ?? {})) {
    successes[key] = parseAnswer(item, value, 'GET', `${jobPath} (successes.${key})`);
  }
  const failures: Record<string, ApiError> = {};
  for (const [key, body] of Object.entries(job.failures ?? {})) {
    failures[key] = apiErrorFromBody(body, { method: 'GET', path: jobPath, fallbackCode: 'ITEM_FAILED', what: `Item ${key} of job ${job.id}` });
  }
  return job.result === undefined ? { jobId: job.id, successes, failures } : { jobId: job.id, successes, failures, result: job.result };
}

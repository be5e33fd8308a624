/**
 * Runs persisted jobs one at a time, in creation order, in chunks: each chunk's item effects and the
 * job's cursor and its items' result rows commit in one SQLite transaction, so a restart resumes after the last
 * committed chunk and no item runs twice. Each item runs in its own savepoint: an item that fails with
 * a ServiceError is rolled back alone and recorded under `failures`; any other error is a bug and fails
 * the whole job (its current chunk rolled back).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ErrorBody } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { toErrorBody } from '../errors/to-error-body.js';
import { callerOf, type Caller } from '../http/request-auth.js';
import type { JobRow, JobsRepo } from './jobs-repo.js';

export interface JobHandler<Input = unknown, Item = unknown> {
  /** The wire type name, e.g. `AssetAndUploadBatchJob`. */
  readonly type: string;
  /** Items per transaction. */
  readonly chunkSize: number;
  /** The job's items, keyed by the caller's batchItemId. */
  items(input: Input): { key: string; item: Item }[];
  /** Runs one item inside the chunk's transaction; returns its success value or throws a ServiceError. */
  runItem(item: Item, caller: Caller, input: Input): unknown;
  /**
   * Called after each chunk's transaction, with whether it committed: the place for effects outside
   * the database (removing freed blobs) that must happen only once the rows are gone for good.
   */
  afterChunk?(committed: boolean): void;
  /**
   * Called once as the job starts (or resumes), with every item still to run: the place to start async
   * work for all of them at once (a download's renditions queue on the render slots in item order), so
   * the work of later chunks is under way while earlier ones commit.
   */
  start?(items: Item[], caller: Caller, input: Input): void;
  /**
   * Async work for a chunk's items before its transaction opens (rendering transformations), so the
   * transaction itself stays short and synchronous. A failure here that concerns one item is for
   * runItem to report; a rejection fails the job.
   */
  beforeChunk?(items: Item[], caller: Caller, input: Input): Promise<void>;
  /**
   * After beforeChunk: how many of the chunk's first items to commit now (at least one; the rest come
   * back in the next chunk), so items whose work is done show in the job's successes while later ones
   * still run. Without it the whole chunk commits.
   */
  readyCount?(items: Item[], input: Input): number;
  /** After the last chunk: the job's own result besides its items' (a zipped download's zip), stored with it. */
  finish?(input: Input, successes: Record<string, unknown>, caller: Caller, jobId: string): Promise<unknown>;
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler<never, never>>();
  /** Callers waiting for a job to move (held polls), by job id. */
  private readonly watchers = new Map<string, Set<() => void>>();
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly jobs: JobsRepo,
  ) {}

  register<I, T>(handler: JobHandler<I, T>): void {
    this.handlers.set(handler.type, handler as unknown as JobHandler<never, never>);
  }

  /** Starts working through queued jobs unless already doing so. */
  kick(): void {
    if (this.closed || this.running !== undefined) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when no job is left to run (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.watchers.keys()]) this.moved(id);
    await this.running;
  }

  /**
   * Resolves when the job next moves (a chunk committed, or it ended), after `ms` at the latest, or at
   * once when the runner is closing. Register it in the same turn as reading the job's row, so no move
   * can fall between the two.
   */
  nextMove(jobId: string, ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      let watchers = this.watchers.get(jobId);
      if (watchers === undefined) this.watchers.set(jobId, (watchers = new Set()));
      const done = (): void => {
        clearTimeout(timer);
        const current = this.watchers.get(jobId);
        current?.delete(done);
        if (current?.size === 0) this.watchers.delete(jobId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      watchers.add(done);
    });
  }

  private moved(jobId: string): void {
    for (const done of [...(this.watchers.get(jobId) ?? [])]) done();
  }

  private async drain(): Promise<void> {
    await yieldToEventLoop();
    for (let row = this.jobs.next(); row !== undefined && !this.closed; row = this.jobs.next()) {
      await this.run(row);
    }
  }

  private async run(row: JobRow): Promise<void> {
    const { ctx, jobs } = this;
    const handler = this.handlers.get(row.type) as JobHandler | undefined;
    const member = ctx.sessions.byAccount(row.account_id, row.user_id);
    if (handler === undefined || member === undefined) {
      const why = handler === undefined ? `No handler for job type ${row.type}.` : 'The user who created the job is no longer a member of the account.';
      jobs.finish(row.id, 'FAILED', this.errorBody(new ServiceError(handler === undefined ? 'INTERNAL' : 'FORBIDDEN', why), row), ctx.nowIso());
      this.moved(row.id);
      return;
    }
    const caller = callerOf(member, ctx.folderPolicy);
    try {
      const input: unknown = JSON.parse(row.input);
      const items = handler.items(input);
      // Kept in memory as well for the handler's finish (a zip of every item's file).
      const { successes } = jobs.results(row);
      handler.start?.(
        items.slice(row.cursor).map(({ item }) => item),
        caller,
        input,
      );
      for (let cursor = row.cursor; cursor < items.length && !this.closed; ) {
        let chunk = items.slice(cursor, cursor + handler.chunkSize);
        const chunkItems = chunk.map(({ item }) => item);
        await handler.beforeChunk?.(chunkItems, caller, input);
        if (handler.readyCount !== undefined) chunk = chunk.slice(0, Math.max(1, handler.readyCount(chunkItems, input)));
        const end = cursor + chunk.length;
        try {
          ctx.db.transaction(() => {
            for (const [offset, { key, item }] of chunk.entries()) {
              let success: unknown;
              try {
                success = ctx.db.transaction(() => handler.runItem(item, caller, input))();
              } catch (error) {
                if (!(error instanceof ServiceError)) throw error;
                jobs.putFailure(row.id, key, cursor + offset, this.errorBody(error, row));
                continue;
              }
              successes[key] = success;
              jobs.putSuccess(row.id, key, cursor + offset, success);
            }
            jobs.saveProgress(row.id, end, end / items.length);
          })();
        } catch (error) {
          handler.afterChunk?.(false);
          throw error;
        }
        handler.afterChunk?.(true);
        // After the last chunk the next move is the end (below), a moment later: a poll woken now would
        // only hear RUNNING and have to ask again.
        if (end < items.length) this.moved(row.id);
        cursor = end;
        await yieldToEventLoop();
      }
      if (this.closed) return;
      const result = handler.finish === undefined ? undefined : await handler.finish(input, successes, caller, row.id);
      jobs.finish(row.id, 'COMPLETED', null, ctx.nowIso(), result);
    } catch (error) {
      ctx.log.error({ err: error, job: row.id }, 'job failed');
      const failure = error instanceof ServiceError ? error : new ServiceError('INTERNAL', 'The job failed unexpectedly.');
      jobs.finish(row.id, 'FAILED', this.errorBody(failure, row), ctx.nowIso());
    } finally {
      this.moved(row.id);
    }
  }

  private errorBody(error: ServiceError, row: JobRow): ErrorBody {
    return toErrorBody(error.status, error.code, error.message, `/jobs/${row.id}`, new Date(this.ctx.clock.now()));
  }
}

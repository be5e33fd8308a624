/** Persisted jobs: their input, how far they got (`cursor`), per-item results and final state. */
import type { ErrorBody, Job, JobState } from '../../shared/api/resources.js';
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export interface JobRow {
  id: string;
  account_id: string;
  user_id: string;
  type: string;
  state: JobState;
  progress: number;
  input: string;
  cursor: number;
  successes: string;
  failures: string;
  error: string | null;
  /** JSON of the job's own result (a zipped download's zip), when it has one. */
  result: string | null;
  date_created: string;
  date_completed: string | null;
}

export function toJob(row: JobRow): Job {
  const job: Job = {
    id: row.id,
    type: row.type,
    state: row.state,
    progress: row.progress,
    dateCreated: row.date_created,
    dateCompleted: row.date_completed,
    successes: JSON.parse(row.successes) as Record<string, unknown>,
    failures: JSON.parse(row.failures) as Record<string, ErrorBody>,
  };
  if (row.error !== null) job.error = JSON.parse(row.error) as ErrorBody;
  if (row.result !== null) job.result = JSON.parse(row.result) as unknown;
  return job;
}

export function jobsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO jobs (id, account_id, user_id, type, state, progress, input, date_created) VALUES (?, ?, ?, ?, 'QUEUED', 0, ?, ?)`,
  );
  const byId = db.prepare<[string, string], JobRow>('SELECT * FROM jobs WHERE account_id = ? AND id = ?');
  const byIdAny = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  const next = db.prepare<[], JobRow>("SELECT * FROM jobs WHERE state IN ('QUEUED', 'RUNNING') ORDER BY date_created, rowid LIMIT 1");
  const saveProgress = db.prepare(
    "UPDATE jobs SET state = 'RUNNING', cursor = ?, progress = ?, successes = ?, failures = ? WHERE id = ?",
  );
  // A failed job keeps the progress it reached; a completed one is at 1.
  const finish = db.prepare(
    "UPDATE jobs SET state = @state, progress = CASE WHEN @state = 'COMPLETED' THEN 1 ELSE progress END, error = @error, result = @result, date_completed = @now WHERE id = @id",
  );

  return {
    create(accountId: string, userId: string, type: string, input: unknown, now: string): JobRow {
      const id = timeOrderedUuid();
      insert.run(id, accountId, userId, type, JSON.stringify(input), now);
      const row = byIdAny.get(id);
      if (row === undefined) throw new Error('inserted job vanished');
      return row;
    },
    get: (accountId: string, id: string) => byId.get(accountId, id),
    reload: (id: string) => byIdAny.get(id),
    next: () => next.get(),
    saveProgress: (id: string, cursor: number, progress: number, successes: string, failures: string) =>
      void saveProgress.run(cursor, progress, successes, failures, id),
    finish: (id: string, state: 'COMPLETED' | 'FAILED', error: ErrorBody | null, now: string, result?: unknown) =>
      void finish.run({ state, error: error === null ? null : JSON.stringify(error), result: result === undefined ? null : JSON.stringify(result), now, id }),
  };
}

export type JobsRepo = ReturnType<typeof jobsRepo>;

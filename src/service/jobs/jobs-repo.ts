/**
 * Persisted jobs: their input, how far they got (`cursor`), per-item results and final state. Each
 * item's result is a row of its own (job_item_results), written in the transaction that commits the
 * item, so a commit costs its items' bytes whatever the job's size; a job's answer assembles them.
 */
import type { ErrorBody, Job, JobState } from '../../shared/api/resources.js';
import type { Db } from '../db/open-database.js';
import { cryptoIds, type IdSource } from '../db/time-ordered-id.js';

export interface JobRow {
  id: string;
  account_id: string;
  user_id: string;
  type: string;
  state: JobState;
  progress: number;
  input: string;
  cursor: number;
  /** JSON results of a job written before per-item rows (migration 0017); '{}' for every later one. */
  successes: string;
  failures: string;
  error: string | null;
  /** JSON of the job's own result (a zipped download's zip), when it has one. */
  result: string | null;
  date_created: string;
  date_completed: string | null;
}

/** A job's per-item results, keyed by batchItemId, in the job's item order. */
export interface JobResults {
  successes: Record<string, unknown>;
  failures: Record<string, ErrorBody>;
}

interface ItemResultRow {
  outcome: 'SUCCESS' | 'FAILURE';
  key: string;
  value: string;
}

export function toJob(row: JobRow, results: JobResults): Job {
  const job: Job = {
    id: row.id,
    type: row.type,
    state: row.state,
    progress: row.progress,
    dateCreated: row.date_created,
    dateCompleted: row.date_completed,
    successes: results.successes,
    failures: results.failures,
  };
  if (row.error !== null) job.error = JSON.parse(row.error) as ErrorBody;
  if (row.result !== null) job.result = JSON.parse(row.result) as unknown;
  return job;
}

export function jobsRepo(db: Db, ids: IdSource = cryptoIds()) {
  const insert = db.prepare(
    `INSERT INTO jobs (id, account_id, user_id, type, state, progress, input, date_created) VALUES (?, ?, ?, ?, 'QUEUED', 0, ?, ?)`,
  );
  const byId = db.prepare<[string, string], JobRow>('SELECT * FROM jobs WHERE account_id = ? AND id = ?');
  const byIdAny = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?');
  const next = db.prepare<[], JobRow>("SELECT * FROM jobs WHERE state IN ('QUEUED', 'RUNNING') ORDER BY date_created, rowid LIMIT 1");
  const saveProgress = db.prepare("UPDATE jobs SET state = 'RUNNING', cursor = ?, progress = ? WHERE id = ?");
  const putResult = db.prepare<[string, number, ItemResultRow['outcome'], string, string]>(
    'INSERT INTO job_item_results (job_id, position, outcome, key, value) VALUES (?, ?, ?, ?, ?)',
  );
  const resultsOf = db.prepare<[string], ItemResultRow>('SELECT outcome, key, value FROM job_item_results WHERE job_id = ? ORDER BY position');
  // A failed job keeps the progress it reached; a completed one is at 1.
  const finish = db.prepare(
    "UPDATE jobs SET state = @state, progress = CASE WHEN @state = 'COMPLETED' THEN 1 ELSE progress END, error = @error, result = @result, date_completed = @now WHERE id = @id",
  );

  return {
    create(accountId: string, userId: string, type: string, input: unknown, now: string): JobRow {
      const id = ids.uuid();
      insert.run(id, accountId, userId, type, JSON.stringify(input), now);
      const row = byIdAny.get(id);
      if (row === undefined) throw new Error('inserted job vanished');
      return row;
    },
    get: (accountId: string, id: string) => byId.get(accountId, id),
    reload: (id: string) => byIdAny.get(id),
    next: () => next.get(),
    /** Records one item's result; call it in the transaction that commits the item. */
    putSuccess: (id: string, key: string, position: number, value: unknown) => {
      // undefined (a handler that answers nothing) has no JSON: as JSON.stringify of the results
      // object did, such a key is not listed.
      if (value !== undefined) putResult.run(id, position, 'SUCCESS', key, JSON.stringify(value));
    },
    putFailure: (id: string, key: string, position: number, error: ErrorBody) => void putResult.run(id, position, 'FAILURE', key, JSON.stringify(error)),
    saveProgress: (id: string, cursor: number, progress: number) => void saveProgress.run(cursor, progress, id),
    /** The job's per-item results: those of its rows, over any it kept as JSON from before them. */
    results(row: JobRow): JobResults {
      const results: JobResults = { successes: JSON.parse(row.successes) as Record<string, unknown>, failures: JSON.parse(row.failures) as Record<string, ErrorBody> };
      // The rows' JSON joined into one text per outcome and parsed once: parsing a row at a time took
      // several times as long for a job of 1,000 items (a poll assembles it each time). A key twice
      // (two items of one batchItemId) is listed once, where it came first, with the later value.
      const texts: Record<ItemResultRow['outcome'], string[]> = { SUCCESS: [], FAILURE: [] };
      for (const item of resultsOf.iterate(row.id)) texts[item.outcome].push(`${JSON.stringify(item.key)}:${item.value}`);
      Object.assign(results.successes, JSON.parse(`{${texts.SUCCESS.join(',')}}`) as Record<string, unknown>);
      Object.assign(results.failures, JSON.parse(`{${texts.FAILURE.join(',')}}`) as Record<string, ErrorBody>);
      return results;
    },
    finish: (id: string, state: 'COMPLETED' | 'FAILED', error: ErrorBody | null, now: string, result?: unknown) =>
      void finish.run({ state, error: error === null ? null : JSON.stringify(error), result: result === undefined ? null : JSON.stringify(result), now, id }),
  };
}

export type JobsRepo = ReturnType<typeof jobsRepo>;

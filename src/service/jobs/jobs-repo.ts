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

/** Jobs whose last answer's results are kept (see jobsRepo's `answered`). */
const ANSWERED_JOBS = 16;

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
  const resultsFrom = db.prepare<[string, number], ItemResultRow>('SELECT outcome, key, value FROM job_item_results WHERE job_id = ? AND position >= ? ORDER BY position');
  /**
   * The results of the jobs answered last, with the cursor they were read at (most recent last). A
   * job's rows change only with its cursor, in one transaction: a poll that finds the cursor where the
   * last answer left it reuses that answer's results, and one that finds it further on reads and parses
   * only the rows after it, so a poll's cost does not grow with the items the job has done so far.
   */
  const answered = new Map<string, { cursor: number; results: JobResults }>();
  // A failed job keeps the progress it reached; a completed one is at 1.
  const finish = db.prepare(
    "UPDATE jobs SET state = @state, progress = CASE WHEN @state = 'COMPLETED' THEN 1 ELSE progress END, error = @error, result = @result, date_completed = @now WHERE id = @id",
  );

  /** The rows' JSON joined into one text per outcome and parsed once, added over `into` in row order. */
  const addRows = (rows: Iterable<ItemResultRow>, into: JobResults): void => {
    // Parsing a row at a time took several times as long for a job of 1,000 items. A key twice (two
    // items of one batchItemId) is listed once, where it came first, with the later value.
    const texts: Record<ItemResultRow['outcome'], string[]> = { SUCCESS: [], FAILURE: [] };
    for (const item of rows) texts[item.outcome].push(`${JSON.stringify(item.key)}:${item.value}`);
    if (texts.SUCCESS.length > 0) Object.assign(into.successes, JSON.parse(`{${texts.SUCCESS.join(',')}}`) as Record<string, unknown>);
    if (texts.FAILURE.length > 0) Object.assign(into.failures, JSON.parse(`{${texts.FAILURE.join(',')}}`) as Record<string, ErrorBody>);
  };
  /** Everything the job has: its rows, over any results it kept as JSON from before them. */
  const allResults = (row: JobRow): JobResults => {
    const results: JobResults = { successes: JSON.parse(row.successes) as Record<string, unknown>, failures: JSON.parse(row.failures) as Record<string, ErrorBody> };
    addRows(resultsOf.iterate(row.id), results);
    return results;
  };

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
    results: allResults,
    /**
     * The same for a job's answer (a poll), read on from the last answer's (see `answered`). Read it in
     * the same turn as `row`. The objects are the caller's: later answers never change them.
     */
    answerResults(row: JobRow): JobResults {
      const last = answered.get(row.id);
      answered.delete(row.id);
      let results: JobResults;
      if (last === undefined || last.cursor > row.cursor) {
        results = allResults(row);
      } else {
        results = last.results;
        if (last.cursor < row.cursor) addRows(resultsFrom.iterate(row.id, last.cursor), results);
      }
      answered.set(row.id, { cursor: row.cursor, results });
      for (const id of answered.keys()) {
        if (answered.size <= ANSWERED_JOBS) break;
        answered.delete(id);
      }
      return { successes: { ...results.successes }, failures: { ...results.failures } };
    },
    finish: (id: string, state: 'COMPLETED' | 'FAILED', error: ErrorBody | null, now: string, result?: unknown) =>
      void finish.run({ state, error: error === null ? null : JSON.stringify(error), result: result === undefined ? null : JSON.stringify(result), now, id }),
  };
}

export type JobsRepo = ReturnType<typeof jobsRepo>;

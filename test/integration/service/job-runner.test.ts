import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { JobRunner } from '../../../src/service/jobs/job-runner.js';
import { jobsRepo, type JobsRepo } from '../../../src/service/jobs/jobs-repo.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { ServiceError } from '../../../src/service/errors/service-error.js';

/** A job's state, cursor and per-item results as its GET assembles them. */
function stateOf(jobs: JobsRepo, accountId: string, id: string) {
  const row = jobs.get(accountId, id);
  return row === undefined ? undefined : { state: row.state, cursor: row.cursor, ...jobs.results(row) };
}

/** A duplicate key, a failing item, and an integer-like key: what the results' rows must order as an object would. */
const KEYED_ITEMS = [
  { key: 'old', value: 0 },
  { key: 'z', value: 1 },
  { key: 'a', value: 2 },
  { key: 'gone', value: -1 },
  { key: 'z', value: 3 },
  { key: '7', value: 4 },
];

/** Registers a job kind over KEYED_ITEMS: each item answers its value, a negative one fails NOT_FOUND. */
function registerKeyedJob(runner: JobRunner, type: string, chunkSize: number, afterChunk?: () => void): void {
  runner.register<{ items: { key: string; value: number }[] }, { key: string; value: number }>({
    type,
    chunkSize,
    items: (input) => input.items.map((item) => ({ key: item.key, item })),
    runItem: (item) => {
      if (item.value < 0) throw new ServiceError('NOT_FOUND', `No item ${item.key}.`);
      return { value: item.value };
    },
    ...(afterChunk === undefined ? {} : { afterChunk }),
  });
}

/** A day: a wait that ends only because the job moved (the test would time out first). */
const FOREVER_MS = 24 * 3600 * 1000;

describe('JobRunner.nextMove (held polls)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('wakes a waiter when a chunk commits and when the job ends, not before (the last chunk wakes it at the end)', async () => {
    const { ctx } = service.running;
    const jobs = jobsRepo(ctx.db);
    // A runner of its own on the service's database, for a job kind whose chunks wait for the test.
    const runner = new JobRunner(ctx, jobs);
    const gates: (() => void)[] = [];
    runner.register<{ items: string[] }, string>({
      type: 'GatedTestJob',
      chunkSize: 1,
      items: (input) => input.items.map((item) => ({ key: item, item })),
      beforeChunk: () => new Promise<void>((resolve) => gates.push(resolve)),
      runItem: (item) => item.toUpperCase(),
    });
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (admin === undefined || account === undefined) throw new Error('no admin');
    await service.running.jobsIdle(); // the service's own runner, started with it, has nothing to pick up
    const row = jobs.create(account.id, admin.id, 'GatedTestJob', { items: ['a', 'b'] }, ctx.nowIso());

    const events: string[] = [];
    const firstMove = runner.nextMove(row.id, FOREVER_MS).then(() => events.push(`moved at cursor ${jobs.get(account.id, row.id)?.cursor}`));
    runner.kick();
    while (gates.length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = jobs.get(account.id, row.id);
      if (now?.state === 'FAILED') throw new Error(now.error ?? '');
    }
    events.push('first chunk released');
    gates[0]?.();
    await firstMove;
    expect(events).toEqual(['first chunk released', 'moved at cursor 1']);

    const second = runner.nextMove(row.id, FOREVER_MS).then(() => events.push(`moved at cursor ${jobs.get(account.id, row.id)?.cursor}, ${jobs.get(account.id, row.id)?.state}`));
    while (gates.length === 1) await new Promise((resolve) => setImmediate(resolve));
    events.push('second chunk released');
    gates[1]?.();
    await second;
    // Not woken between the last chunk and the end: the one answer it gets says the job is over.
    expect(events.slice(2)).toEqual(['second chunk released', 'moved at cursor 2, COMPLETED']);
    expect(stateOf(jobs, account.id, row.id)).toMatchObject({ state: 'COMPLETED', successes: { a: 'A', b: 'B' } });
    await runner.close();
  });

  it('starts every item at once and commits only the ready prefix of a chunk, so done items show while later ones run', async () => {
    const { ctx } = service.running;
    const jobs = jobsRepo(ctx.db);
    const runner = new JobRunner(ctx, jobs);
    const started: string[] = [];
    const ready = new Set<string>();
    const gates = new Map<string, () => void>();
    const done = new Map<string, Promise<void>>();
    runner.register<{ items: string[] }, string>({
      type: 'ReadyPrefixTestJob',
      chunkSize: 100,
      items: (input) => input.items.map((item) => ({ key: item, item })),
      start: (items) => {
        for (const item of items) {
          started.push(item);
          done.set(item, new Promise<void>((resolve) => gates.set(item, resolve)).then(() => void ready.add(item)));
        }
      },
      beforeChunk: async (items) => {
        await done.get(items[0] ?? '');
      },
      readyCount: (items) => {
        const pending = items.findIndex((item) => !ready.has(item));
        return pending === -1 ? items.length : pending;
      },
      runItem: (item) => item.toUpperCase(),
    });
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (admin === undefined || account === undefined) throw new Error('no admin');
    await service.running.jobsIdle();
    const row = jobs.create(account.id, admin.id, 'ReadyPrefixTestJob', { items: ['a', 'b', 'c', 'd'] }, ctx.nowIso());
    const release = async (...items: string[]): Promise<void> => {
      for (const item of items) gates.get(item)?.();
      await Promise.all(items.map((item) => done.get(item) ?? Promise.resolve()));
    };

    const firstMove = runner.nextMove(row.id, FOREVER_MS);
    runner.kick();
    while (started.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    // c is made before a and b: nothing may commit until a is; then a, b and c go in one transaction.
    await release('c');
    await release('a', 'b');
    await firstMove;
    expect(stateOf(jobs, account.id, row.id)).toMatchObject({ state: 'RUNNING', cursor: 3, successes: { a: 'A', b: 'B', c: 'C' } });

    const end = runner.nextMove(row.id, FOREVER_MS);
    await release('d');
    await end;
    expect(stateOf(jobs, account.id, row.id)).toMatchObject({ state: 'COMPLETED', successes: { a: 'A', b: 'B', c: 'C', d: 'D' } });
    await runner.close();
  });

  it('keeps each item result as a row and answers them in item order, over results a job kept as JSON before rows', async () => {
    const { ctx } = service.running;
    const jobs = jobsRepo(ctx.db);
    const runner = new JobRunner(ctx, jobs);
    registerKeyedJob(runner, 'ItemRowsTestJob', 2);
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (admin === undefined || account === undefined) throw new Error('no admin');
    await service.running.jobsIdle();
    const row = jobs.create(account.id, admin.id, 'ItemRowsTestJob', { items: KEYED_ITEMS }, ctx.nowIso());
    // A job that ran its first item before results were rows (migration 0017), resumed after it.
    ctx.db.prepare(`UPDATE jobs SET state = 'RUNNING', cursor = 1, successes = '{"old":{"value":0}}' WHERE id = ?`).run(row.id);
    runner.kick();
    await runner.idle();
    const done = jobs.get(account.id, row.id);
    if (done === undefined) throw new Error('the job vanished');
    const { successes, failures } = jobs.results(done);
    // Exactly what one object assigned item by item serialises to: a key twice keeps its first place
    // with its later value, and an integer-like key first (as JavaScript orders them).
    expect(JSON.stringify(successes)).toBe(JSON.stringify({ old: { value: 0 }, z: { value: 3 }, a: { value: 2 }, 7: { value: 4 } }));
    expect(Object.keys(failures)).toEqual(['gone']);
    expect(failures.gone).toMatchObject({ code: 'NOT_FOUND', message: 'No item gone.' });
    // The job's row itself no longer grows with its results.
    expect(done).toMatchObject({ state: 'COMPLETED', successes: '{"old":{"value":0}}', failures: '{}' });
    await runner.close();
  });

  it("answers a job's polls from the rows after the last answer, the same as reading them all, and never changes an answer given", async () => {
    const { ctx } = service.running;
    const jobs = jobsRepo(ctx.db);
    const runner = new JobRunner(ctx, jobs);
    const answers: { cursor: number; answer: string; whole: string; given: ReturnType<JobsRepo['answerResults']>; givenText: string }[] = [];
    let jobId = '';
    const poll = (): void => {
      const row = jobs.reload(jobId);
      if (row === undefined) throw new Error('the job vanished');
      // Twice at the same cursor (a poll whose hold ran out), then as a poll after each chunk.
      jobs.answerResults(row);
      const given = jobs.answerResults(row);
      answers.push({ cursor: row.cursor, answer: JSON.stringify(given), whole: JSON.stringify(jobs.results(row)), given, givenText: JSON.stringify(given) });
    };
    registerKeyedJob(runner, 'AnswerRowsTestJob', 1, () => poll());
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (admin === undefined || account === undefined) throw new Error('no admin');
    await service.running.jobsIdle();
    const row = jobs.create(account.id, admin.id, 'AnswerRowsTestJob', { items: KEYED_ITEMS }, ctx.nowIso());
    jobId = row.id;
    // Its first item from before results were rows (migration 0017), and a poll of it then.
    ctx.db.prepare(`UPDATE jobs SET state = 'RUNNING', cursor = 1, successes = '{"old":{"value":0}}' WHERE id = ?`).run(row.id);
    poll();
    runner.kick();
    await runner.idle();
    expect(answers.map((answer) => answer.cursor)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const answer of answers) {
      expect(answer.answer).toBe(answer.whole);
      // Later answers (which add to the results kept) left this one as it was.
      expect(JSON.stringify(answer.given)).toBe(answer.givenText);
    }
    const last = answers.at(-1)?.given;
    expect(JSON.stringify(last?.successes)).toBe(JSON.stringify({ old: { value: 0 }, z: { value: 3 }, a: { value: 2 }, 7: { value: 4 } }));
    expect(Object.keys(last?.failures ?? {})).toEqual(['gone']);
    await runner.close();
  });

  it('lets a waiter go after its time, and at once when the runner closes', async () => {
    const runner = new JobRunner(service.running.ctx, jobsRepo(service.running.ctx.db));
    await runner.nextMove('no-such-job', 1);
    const held = runner.nextMove('no-such-job', FOREVER_MS);
    await runner.close();
    await held;
    // Closed: nothing is held any more.
    await runner.nextMove('no-such-job', FOREVER_MS);
  });
});

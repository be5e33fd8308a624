import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/service-error.js';
import { hashingPool } from './hashing-pool.js';

/** A hash that ends when the test says so. */
function heldWork(): { work: () => Promise<string>; finish: () => void; started: () => boolean } {
  let finish = (): void => undefined;
  let started = false;
  return {
    work: () =>
      new Promise<string>((resolve) => {
        started = true;
        finish = () => resolve('done');
      }),
    finish: () => finish(),
    started: () => started,
  };
}

describe('hashingPool', () => {
  it('runs at most `concurrency` at once, queues up to `queued` in order, and refuses beyond with HASHING_BUSY', async () => {
    const pool = hashingPool({ concurrency: 2, queued: 1 });
    const [a, b, c] = [heldWork(), heldWork(), heldWork()];
    const runs = [pool.run(a.work), pool.run(b.work), pool.run(c.work)];
    await Promise.resolve();
    expect([a.started(), b.started(), c.started()]).toEqual([true, true, false]);
    const refused = await pool.run(heldWork().work).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'HASHING_BUSY', status: 503, headers: { 'retry-after': '1' } });
    a.finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(c.started()).toBe(true);
    b.finish();
    c.finish();
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done']);
    // All slots are free again.
    const [d, e] = [heldWork(), heldWork()];
    const more = [pool.run(d.work), pool.run(e.work)];
    await Promise.resolve();
    expect([d.started(), e.started()]).toEqual([true, true]);
    d.finish();
    e.finish();
    await Promise.all(more);
  });

  it('frees its slot when the work fails', async () => {
    const pool = hashingPool({ concurrency: 1, queued: 0 });
    await expect(pool.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await pool.run(() => Promise.resolve(1))).toBe(1);
  });
});

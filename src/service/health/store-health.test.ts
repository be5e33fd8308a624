import { describe, expect, it } from 'vitest';
import { StoreHealthCheck, type StoreProbe } from './store-health.js';

const answering = (kind: string): StoreProbe => ({ kind, check: () => Promise.resolve() });

describe('StoreHealthCheck', () => {
  it('is ok when both stores answer, and names the failing one with its code otherwise', async () => {
    const failing: StoreProbe = { kind: 'directory', check: () => Promise.reject(Object.assign(new Error('The blob directory cannot be read and written (EROFS).'), { code: 'EROFS' })) };
    expect(await new StoreHealthCheck({ database: answering('sqlite'), blobs: answering('directory') }).report()).toMatchObject({
      status: 'ok',
      database: { status: 'ok', kind: 'sqlite' },
      blobs: { status: 'ok', kind: 'directory' },
    });
    const report = await new StoreHealthCheck({ database: answering('sqlite'), blobs: failing }).report();
    expect(report).toMatchObject({ status: 'unavailable', database: { status: 'ok' }, blobs: { status: 'failing', code: 'EROFS' } });
    expect(report.blobs.message).toContain('EROFS');
    const throwing: StoreProbe = {
      kind: 'sqlite',
      check: () => {
        throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
      },
    };
    expect(await new StoreHealthCheck({ database: throwing, blobs: answering('directory') }).report()).toMatchObject({
      status: 'unavailable',
      database: { status: 'failing', code: 'SQLITE_CORRUPT', message: 'database disk image is malformed' },
    });
  });

  it('counts a probe that does not answer in time as failing, and never starts a second one while it hangs', async () => {
    let started = 0;
    let answer: () => void = () => undefined;
    const hanging: StoreProbe = {
      kind: 'directory',
      check: () => {
        started++;
        if (started > 1) return Promise.resolve();
        return new Promise<void>((resolve) => {
          answer = resolve;
        });
      },
    };
    const health = new StoreHealthCheck({ database: answering('sqlite'), blobs: hanging }, { timeoutMs: 20 });
    expect(await health.report()).toMatchObject({ status: 'unavailable', blobs: { status: 'failing', code: 'STORE_NOT_ANSWERING', ms: 20 } });
    const again = await health.report();
    expect(again).toMatchObject({ status: 'unavailable', blobs: { status: 'failing', code: 'STORE_NOT_ANSWERING' } });
    expect(again.blobs.message).toMatch(/has not answered for \d+ ms/);
    expect(started).toBe(1);
    // Once the hung check ends, the next report probes afresh.
    answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await health.report()).toMatchObject({ status: 'ok' });
    expect(started).toBe(2);
  });
});

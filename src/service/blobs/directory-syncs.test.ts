import { describe, expect, it } from 'vitest';
import { DirectorySyncs } from './directory-syncs.js';

/** A directory sync that finishes when the test says so, recording when each started. */
function controlledSyncs() {
  const started: { dir: string; finish(error?: Error): void }[] = [];
  const syncs = new DirectorySyncs(
    (dir) =>
      new Promise<void>((resolve, reject) => {
        started.push({ dir, finish: (error) => (error === undefined ? resolve() : reject(error)) });
      }),
  );
  return { syncs, started };
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('DirectorySyncs', () => {
  it('starts a sync at once when none is in flight', async () => {
    const { syncs, started } = controlledSyncs();
    const first = syncs.sync('/a');
    expect(started.map((sync) => sync.dir)).toEqual(['/a']);
    started[0]?.finish();
    await first;
  });

  it('answers requests made during a sync with the next one, which they all share', async () => {
    const { syncs, started } = controlledSyncs();
    const first = syncs.sync('/a');
    const later = [syncs.sync('/a'), syncs.sync('/a'), syncs.sync('/a')];
    // The sync in flight may have started before their entries were made: it must not answer them.
    expect(started).toHaveLength(1);
    started[0]?.finish();
    await first;
    expect(await settled(Promise.all(later))).toBe(false);
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await Promise.all(later);
    expect(started).toHaveLength(2);
  });

  it('keeps directories apart', async () => {
    const { syncs, started } = controlledSyncs();
    const a = syncs.sync('/a');
    const b = syncs.sync('/b');
    expect(started.map((sync) => sync.dir)).toEqual(['/a', '/b']);
    started[1]?.finish();
    await b;
    expect(await settled(a)).toBe(false);
    started[0]?.finish();
    await a;
  });

  it('fails every request a failed sync answered, and the next requests get a sync of their own', async () => {
    const { syncs, started } = controlledSyncs();
    const first = syncs.sync('/a');
    const second = syncs.sync('/a');
    started[0]?.finish(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    started[1]?.finish(new Error('EIO again'));
    await expect(second).rejects.toThrow('EIO again');
    const third = syncs.sync('/a');
    expect(started).toHaveLength(3);
    started[2]?.finish();
    await third;
  });

  it('syncs real directories', async () => {
    const syncs = new DirectorySyncs();
    await Promise.all([syncs.sync(process.cwd()), syncs.sync(process.cwd())]);
    await expect(syncs.sync('/does/not/exist')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

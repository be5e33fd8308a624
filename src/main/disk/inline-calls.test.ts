import { describe, expect, it } from 'vitest';
import { InlineCalls, type InlineCallsOptions } from './inline-calls.js';

/** An InlineCalls on a hand-driven clock and turn, over a disk where `/local` is local. */
function harness(options: InlineCallsOptions = {}) {
  let time = 0;
  const turnEnds: (() => void)[] = [];
  const lookups: string[] = [];
  const calls = new InlineCalls({
    now: () => time,
    afterTurn: (callback) => turnEnds.push(callback),
    isLocalDirectory: (dir) => {
      lookups.push(dir);
      return Promise.resolve(dir === '/local' || dir.startsWith('/local/'));
    },
    ...options,
  });
  /** An inline call that takes `ms`. */
  const taking = (ms: number, value = 'inline') => () => {
    time += ms;
    return value;
  };
  const pooled = () => Promise.resolve('pooled');
  const endTurn = (): void => turnEnds.splice(0).forEach((callback) => callback());
  return { calls, taking, pooled, endTurn, lookups, advance: (ms: number) => (time += ms) };
}

describe('InlineCalls', () => {
  it('runs calls on a local disk inline and others on the pool, looking each directory up once', async () => {
    const { calls, taking, pooled, lookups } = harness();
    expect(await calls.onPath('/local/a.psd', taking(0.01), pooled)).toBe('inline');
    expect(await calls.onPath('/local/b.psd', taking(0.01), pooled)).toBe('inline');
    expect(await calls.onPath('/mnt/nas/c.psd', taking(0.01), pooled)).toBe('pooled');
    expect(lookups).toEqual(['/local', '/mnt/nas']);
  });

  it('looks a directory up again after a minute, so a share mounted over it later is seen', async () => {
    const { calls, taking, pooled, lookups, advance } = harness();
    await calls.onPath('/local/a', taking(0.01), pooled);
    advance(59_999);
    await calls.onPath('/local/b', taking(0.01), pooled);
    expect(lookups).toEqual(['/local']);
    advance(1);
    await calls.onPath('/local/c', taking(0.01), pooled);
    expect(lookups).toEqual(['/local', '/local']);
  });

  it('goes to the pool once a turn has spent its slice inline, and inline again in the next turn', async () => {
    const { calls, taking, pooled, endTurn } = harness({ sliceMs: 2 });
    const answers: string[] = [];
    for (let index = 0; index < 5; index++) answers.push(await calls.onPath('/local/f', taking(0.9), pooled));
    expect(answers).toEqual(['inline', 'inline', 'inline', 'pooled', 'pooled']);
    expect(calls.tryInline(taking(0.1))).toBeUndefined();
    endTurn();
    expect(await calls.onOpened(taking(0.9), pooled)).toBe('inline');
    expect(calls.tryInline(taking(0.1, 'tried'))).toEqual({ value: 'tried' });
  });

  it('sends every call to the pool for the cool-down after three slow inline calls within the window, then tries inline again', async () => {
    const { calls, taking, pooled, endTurn, advance } = harness({ slowCallMs: 5, slowCalls: 3, slowWindowMs: 1000, coolDownMs: 1000 });
    const slowCall = async (): Promise<string> => {
      const answer = await calls.onOpened(taking(8), pooled);
      endTurn();
      return answer;
    };
    // Two slow calls, then one more only after the first left the window: a busy scheduler, not a slow disk.
    expect(await slowCall()).toBe('inline');
    advance(600);
    expect(await slowCall()).toBe('inline');
    advance(600);
    expect(await slowCall()).toBe('inline');
    expect(await calls.onPath('/local/next', taking(0.01), pooled)).toBe('inline');
    // A third within the second: every call goes to the pool until the cool-down ends.
    expect(await slowCall()).toBe('inline');
    expect(await calls.onPath('/local/next', taking(0.01), pooled)).toBe('pooled');
    advance(999);
    expect(await calls.onOpened(taking(0.01), pooled)).toBe('pooled');
    advance(1);
    expect(await calls.onOpened(taking(0.01), pooled)).toBe('inline');
  });

  it('throws what an inline call throws, and counts its time', async () => {
    const { calls, pooled, advance } = harness({ sliceMs: 2 });
    const failing = (): string => {
      advance(2.5);
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    };
    await expect(calls.onPath('/local/gone', failing, pooled)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => calls.tryInline(failing)).not.toThrow(); // the slice is spent: not run at all
  });

  it('treats a directory whose lookup failed as not local, and looks again next time', async () => {
    let attempts = 0;
    const { calls, taking, pooled } = harness({
      isLocalDirectory: () => (++attempts === 1 ? Promise.reject(new Error('EACCES')) : Promise.resolve(true)),
    });
    expect(await calls.onPath('/local/a', taking(0.01), pooled)).toBe('pooled');
    expect(await calls.onPath('/local/b', taking(0.01), pooled)).toBe('inline');
    expect(attempts).toBe(2);
  });

  it('really runs node:fs calls inline on this machine’s temp directory', async () => {
    const { lstatSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const calls = new InlineCalls();
    const local = await calls.isLocal(tmpdir());
    let ranInline = false;
    const stats = await calls.onPath(
      `${tmpdir()}/.`,
      () => {
        ranInline = true;
        return lstatSync(tmpdir());
      },
      async () => lstatSync(tmpdir()),
    );
    expect(stats.isDirectory()).toBe(true);
    // Linux temp directories are on ext4, xfs, btrfs or tmpfs here; elsewhere the path decides.
    expect(ranInline).toBe(local);
  });
});

import { constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { creates, Descriptor } from './descriptor.js';
import { InlineCalls } from './inline-calls.js';

/** Real calls on a real temp directory; `inlined` counts the calls that ran on the event loop. */
function counted(local: boolean) {
  const calls = new InlineCalls({ isLocalDirectory: () => Promise.resolve(local) });
  const ran = { inlined: 0 };
  const tryInline = calls.tryInline.bind(calls);
  calls.tryInline = <T>(inline: () => T) => {
    const answer = tryInline(inline);
    if (answer !== undefined) ran.inlined += 1;
    return answer;
  };
  return { calls, ran };
}

describe('Descriptor', () => {
  const dirs: string[] = [];
  const dir = (): string => {
    const made = mkdtempSync(join(tmpdir(), 'asset-sync-descriptor-'));
    dirs.push(made);
    return made;
  };
  afterEach(() => dirs.splice(0).forEach((made) => rmSync(made, { recursive: true, force: true })));

  it('tells the flags that may create a file from those that only open one', () => {
    expect(['w', 'wx', 'w+', 'a', 'ax+'].map(creates)).toEqual([true, true, true, true, true]);
    expect(['r', 'r+', 'rs+'].map(creates)).toEqual([false, false, false]);
    expect(creates(constants.O_WRONLY | constants.O_CREAT)).toBe(true);
    expect(creates(constants.O_RDONLY | constants.O_NOFOLLOW)).toBe(false);
  });

  it('creates and writes a file on the pool, then dates, looks at and closes it inline on a local disk', async () => {
    const { calls, ran } = counted(true);
    const path = join(dir(), 'new.bin');
    const file = await Descriptor.open(calls, path, 'w');
    await file.write(Buffer.from('bytes'), 0, 5, 0);
    expect(ran.inlined).toBe(0);
    await file.futimes(1_700_000_000, 1_700_000_000);
    expect((await file.fstat()).mtimeMs).toBe(1_700_000_000_000);
    await file.close();
    expect(ran.inlined).toBe(3);
    expect(readFileSync(path, 'utf8')).toBe('bytes');
  });

  it('opens a file that exists inline on a local disk, and every call of a file elsewhere on the pool', async () => {
    const path = join(dir(), 'old.bin');
    writeFileSync(path, 'old');
    const local = counted(true);
    const read = await Descriptor.open(local.calls, path, 'r');
    await read.close();
    expect(local.ran.inlined).toBe(2);

    const remote = counted(false);
    const written = await Descriptor.open(remote.calls, path, 'r+');
    await written.write(Buffer.from('new'), 0, 3, 0);
    await written.close();
    expect(remote.ran.inlined).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('new');
  });
});

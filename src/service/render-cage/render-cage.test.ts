import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RenderCage, renderCageEvents, type RenderCageEvent, type RenderLimits } from './render-cage.js';
import type { RenderJob } from './render-jobs.js';
import { heavySvg } from '../../../test/support/hostile-svg.js';
import { makeImage, makePdf } from '../../../test/support/media-fixtures.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const LIMITS: RenderLimits = { processes: 1, cpuMs: 400, wallMs: 60_000, memoryMb: 1024 };

describe('RenderCage, the pool of render processes', () => {
  let cage: RenderCage | undefined;
  const events: RenderCageEvent[] = [];
  const onEvent = (event: unknown): void => {
    events.push(event as RenderCageEvent);
  };
  afterEach(async () => {
    unsubscribe(renderCageEvents.name, onEvent);
    events.length = 0;
    await cage?.close();
    cage = undefined;
  });

  const preview = (dir: string, name: string, bytes: Buffer, mediaType = 'image/svg+xml'): RenderJob => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return { kind: 'preview', previewKind: 'image', source: { path }, mediaType, target: `${path}.webp` };
  };

  it("takes accounts in turn: one account's slow files do not hold up another's", async () => {
    const dir = tempDir('render-cage-');
    cage = new RenderCage(LIMITS);
    subscribe(renderCageEvents.name, onEvent);
    // One process; the flooder queues three files that each run into the limit, then another account one photo.
    const running = cage;
    const flood = [1, 2, 3].map((seed) => running.run('flooder', `slow-${seed}`, preview(dir, `slow-${seed}.svg`, heavySvg(15_000, seed))).catch((error: unknown) => error));
    const photo = running.run('other', 'photo', preview(dir, 'photo.jpg', await makeImage(400, 300), 'image/jpeg'));
    await expect(photo).resolves.toBeNull();
    const failures = await Promise.all(flood);
    expect(failures.map((failure) => (failure as { reason?: string }).reason)).toEqual(['TIME_LIMIT', 'TIME_LIMIT', 'TIME_LIMIT']);
    const order = events.map((event) => `${event.phase} ${event.label}`);
    // The photo waited for the render already under way only, not for the flooder's backlog.
    expect(order.slice(0, 6)).toEqual(['start slow-1', 'end slow-1', 'start photo', 'end photo', 'start slow-2', 'end slow-2']);
    expect(existsSync(join(dir, 'photo.jpg.webp'))).toBe(true);
    // A killed process is replaced: the photo ran in the one that took slow-1's place, and so did slow-2.
    const pidOf = (label: string): number | undefined => events.find((event) => event.phase === 'start' && event.label === label)?.pid;
    expect(pidOf('photo')).not.toBe(pidOf('slow-1'));
    expect(pidOf('slow-2')).toBe(pidOf('photo'));
    expect(pidOf('slow-3')).not.toBe(pidOf('slow-2'));
  });

  it('reuses a process across jobs, and kills one over its memory limit', async () => {
    const dir = tempDir('render-cage-');
    cage = new RenderCage({ ...LIMITS, cpuMs: 60_000, memoryMb: 200 });
    subscribe(renderCageEvents.name, onEvent);
    const photo = preview(dir, 'photo.jpg', await makeImage(400, 300), 'image/jpeg');
    await cage.run('a', 'first', photo);
    await cage.run('a', 'second', { ...photo, target: join(dir, 'second.webp') });
    expect(statSync(join(dir, 'second.webp')).size).toBeGreaterThan(0);
    const [first, second] = events.filter((event) => event.phase === 'start');
    expect(second?.pid).toBe(first?.pid);
    // A PDF page asked at 6000 px: MuPDF's pixmap and its copies take the process past 250 MB (a photo's preview: under 100).
    const pdf = join(dir, 'page.pdf');
    writeFileSync(pdf, await makePdf(1));
    const big: RenderJob = { kind: 'transform', source: { path: pdf }, operations: [{ type: 'RESIZE', width: 6000, height: null, fit: 'INSIDE', enlarge: true }], inputSubtype: 'pdf', target: join(dir, 'big.png') };
    await expect(cage.run('a', 'big', big)).rejects.toMatchObject({ reason: 'MEMORY_LIMIT', message: 'Rendering this file needed more than 200 MiB of memory, so it was stopped.' });
    expect(events.at(-1)).toMatchObject({ phase: 'end', label: 'big', outcome: 'killed', reason: 'MEMORY_LIMIT' });
  });
});

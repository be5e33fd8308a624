/**
 * `asset-sync start` headless, as `npm start` runs it where no desktop window can open: the local
 * library, ~/Asset Sync (here --folder), the UI's address printed with one line on why there is no
 * window; while it runs `status` and `conflicts` ask it; Ctrl+C stops everything and removes app.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { cli } from '../support/cli-runner.js';
import { recordingIo } from '../support/fake-io.js';
import { tempDir } from '../support/temp-dir.js';

describe('asset-sync start (headless)', () => {
  const base = tempDir('asset-sync-start-');

  it('runs the app with the local library, serves its UI, answers status, and stops on Ctrl+C', { timeout: 60_000 }, async () => {
    const stateDir = join(base, 'state');
    const folder = join(base, 'Asset Sync');
    const io = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password', XDG_DATA_HOME: join(base, 'xdg-data') });
    const running = main(['start', '--headless', '--no-open', '--state', stateDir, '--data', join(base, 'data'), '--port', '0', '--folder', folder], io);
    const url = await vi.waitFor(
      () => {
        const line = io.outLines.find((text) => text.includes('/?secret='));
        if (line === undefined) throw new Error(`no URL yet: ${io.errLines.join(' | ')}`);
        return /(http:\/\/127\.0\.0\.1:\d+\/\?secret=\S+)/.exec(line)?.[1] ?? '';
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(io.errLines.filter((line) => line.startsWith('No desktop window:'))).toEqual(['No desktop window: --headless was given; the same app runs in your browser instead.']);
    expect(existsSync(join(stateDir, 'app.json'))).toBe(true);
    // Issue 15: never a link to a sign-in page that cannot work on its own.
    expect([...io.outLines, ...io.errLines].join('\n')).not.toContain('/authorize');
    // The UI: the link's secret for a cookie, once; `asset-sync open` makes another link.
    const exchange = await fetch(url, { redirect: 'manual' });
    expect(exchange.status).toBe(303);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(403);
    expect(readFileSync(join(stateDir, 'app.json'), 'utf8')).not.toContain(new URL(url).searchParams.get('secret'));
    const opened = await cli(['open', '--state', stateDir, '--print']);
    expect(opened.code, opened.err).toBe(0);
    const next = opened.out.trim();
    expect(next).toMatch(new RegExp(`^${new URL(url).origin.replace(/\./g, '\\.')}/\\?secret=[A-Za-z0-9_-]{43}$`));
    expect(next).not.toBe(url);
    expect((await fetch(next, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(next, { redirect: 'manual' })).status).toBe(403);
    // The link goes out before the app has finished starting: the folder exists once the library is in use.
    await vi.waitFor(() => expect(existsSync(folder)).toBe(true), { timeout: 30_000, interval: 50 });
    writeFileSync(join(folder, 'a.txt'), 'a');
    const status = await vi.waitFor(
      async () => {
        const run = await cli(['status', '--state', stateDir, '--json']);
        const parsed = JSON.parse(run.out);
        if (parsed.folders?.[0]?.syncedFiles !== 1) throw new Error(run.out);
        return parsed;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(status.app).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.stringify(status)).not.toContain(new URL(url).searchParams.get('secret'));
    expect(status.folders[0]).toMatchObject({ path: folder, activity: { kind: 'up-to-date' } });
    const text = await cli(['status', '--state', stateDir]);
    expect(text.out).toContain('The Asset Sync app is running (up to date).');
    const conflicts = await cli(['conflicts', '--state', stateDir]);
    expect(conflicts.out).toBe('No conflicts.');
    io.interrupt();
    expect(await running).toBe(0);
    expect(existsSync(join(stateDir, 'app.json'))).toBe(false);
    // With the app gone, status reads the database again.
    const after = JSON.parse((await cli(['status', '--state', stateDir, '--json'])).out);
    expect(after.app).toBeUndefined();
    expect(after.roots[0]).toMatchObject({ path: folder, syncedFiles: 1 });
    const notRunning = await cli(['open', '--state', stateDir]);
    expect(notRunning.code).toBe(1);
    expect(notRunning.err).toContain('Asset Sync is not running in a browser for');
  });
});

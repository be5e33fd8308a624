/**
 * `asset-sync login` as a user runs it: a real process that, with `--no-browser`, prints the sign-in
 * URL on stderr and waits on its loopback listener; a fake browser (test/support/fake-browser.ts)
 * signs in there. The stored tokens then carry `sync` without --server or ASSET_SYNC_TOKEN, and
 * `logout` takes that away again.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { fakeBrowser } from '../support/fake-browser.js';
import { cli, runCliChild, spawnCli, type CliChild } from '../support/cli-runner.js';
import { closedPort } from '../support/closed-port.js';
import { readTokens, tokenFilePath } from '../../src/main/auth/token-store.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

/** Waits for the sign-in URL on the child's stderr. */
async function signInUrl(child: CliChild): Promise<string> {
  const found = (): string | undefined => {
    const url = /^ {2}(http:\/\/\S+\/authorize\?\S+)$/m.exec(child.err)?.[1];
    if (url === undefined && child.process.exitCode !== null) throw new Error(`no sign-in URL on stderr: ${child.err}`);
    return url;
  };
  return until('the sign-in URL on stderr', found, { timeoutMs: 20_000, context: () => child.err });
}

describe('asset-sync login', () => {
  let service: TestService;
  const children: CliChild[] = [];

  beforeAll(async () => {
    service = await startTestService();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) await child.kill();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('prints the URL with --no-browser, signs in through the browser, and the tokens carry sync', async () => {
    const stateDir = tempDir('asset-sync-login-state-');
    const child = spawnCli(['login', '--server', service.url, '--state', stateDir, '--no-browser']);
    children.push(child);
    const url = new URL(await signInUrl(child));
    expect(child.err).toContain('Open this address in a browser to sign in:');
    expect(`${url.origin}${url.pathname}`).toBe(`${service.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', client_id: 'asset-sync-desktop', code_challenge_method: 'S256', scope: 'subdomain:local offline_access' });
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const browser = fakeBrowser({ email: service.running.ctx.config.adminEmail });
    await browser.openUrl(url.href);
    expect(browser.visits[0]?.callbackStatus).toBe(200);
    expect(await child.exited).toBe(0);
    expect(child.out.trim()).toBe(`signed in to ${service.url}`);
    expect(child.err).not.toMatch(/eyJ|access_token|code_verifier/);
    if (process.platform !== 'win32') expect(statSync(tokenFilePath(stateDir)).mode & 0o777).toBe(0o600);

    // No --server, no ASSET_SYNC_TOKEN: the stored sign-in is enough.
    const folder = tempDir('asset-sync-login-root-');
    writeFileSync(join(folder, 'signed-in.txt'), 'hello');
    const synced = await cli(['sync', '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '50']);
    expect(synced.code, synced.err).toBe(0);
    const names = service.running.ctx.db.prepare<[], { filename: string }>('SELECT filename FROM asset_files').all();
    expect(names.map((row) => row.filename)).toContain('signed-in.txt');

    // Signing out ends the sign-in on the service: its tokens are refused at once, not when they expire.
    const stored = await readTokens(stateDir);
    expect((await cli(['logout', '--state', stateDir])).out).toBe('signed out: the service ended this sign-in');
    const access = await fetch(`${service.url}/current-user`, { headers: { authorization: `Bearer ${stored?.accessToken ?? ''}` } });
    expect(access.status).toBe(401);
    expect(((await access.json()) as { code: string }).code).toBe('TOKEN_REVOKED');
    const renewal = await fetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'asset-sync-desktop', refresh_token: stored?.refreshToken ?? '' }).toString(),
    });
    expect(renewal.status).toBe(400);
    writeFileSync(join(folder, 'after-logout.txt'), 'not sent');
    const signedOut = await cli(['sync', '--server', service.url, '--state', stateDir, '--once', '--stable-ms', '50']);
    expect(signedOut.code).toBe(1);
    expect(signedOut.err).toContain('not synced: after-logout.txt: NOT_SIGNED_IN: ');
  });

  it('fails with OAUTH_ACCESS_DENIED when the user declines, storing nothing', async () => {
    const stateDir = tempDir('asset-sync-login-denied-');
    const child = spawnCli(['login', '--server', service.url, '--state', stateDir, '--no-browser']);
    children.push(child);
    await fakeBrowser({ email: service.running.ctx.config.adminEmail, decision: 'deny' }).openUrl(await signInUrl(child));
    expect(await child.exited).toBe(1);
    expect(child.err).toContain('[OAUTH_ACCESS_DENIED]');
    expect(() => statSync(tokenFilePath(stateDir))).toThrow();
  });

  it('checks the server first: a closed port, a wrong path, no browser each end in seconds, saying what is wrong', async () => {
    const stateDir = tempDir('asset-sync-login-check-');
    const closed = `http://127.0.0.1:${await closedPort()}`;
    // Bounded well below the 300 s the sign-in would wait (a run that waits is killed and fails here),
    // and well above what starting a child takes on a loaded machine.
    const refused = await runCliChild(['login', '--server', closed, '--state', stateDir, '--no-browser'], { timeoutMs: 120_000 });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`Can't reach ${closed}: nothing is listening there (connection refused).`);
    expect(refused.err).toContain('[SERVER_UNREACHABLE]');
    expect(refused.err).not.toContain('/authorize?');

    const wrongPath = await runCliChild(['login', '--server', `${service.url}/wrong/path`, '--state', stateDir, '--no-browser'], { timeoutMs: 120_000 });
    expect(wrongPath.code).toBe(1);
    expect(wrongPath.err).toContain(`${service.url}/wrong/path answers, but not as an Asset Sync or Dash sign-in server`);
    expect(wrongPath.err).toContain('[NOT_AN_ASSET_SERVICE]');

    // No display: the URL is printed, not "Opened your browser".
    const child = spawnCli(['login', '--server', service.url, '--state', stateDir], { env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    children.push(child);
    const url = await signInUrl(child);
    expect(child.err).toContain('Could not open a browser here. Open this address in a browser to sign in:');
    expect(child.err).not.toContain('Opened your browser');
    await fakeBrowser({ email: service.running.ctx.config.adminEmail }).openUrl(url);
    expect(await child.exited).toBe(0);
  }, 400_000);
});

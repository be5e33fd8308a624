/**
 * The browser UI's lasting address: the port a state dir first got stays its home, a busy home port
 * gives way to a free one for one run (and stays the home), a port the user named is used or refused,
 * and a session cookie from one start lets the browser in at the next. Busy ports are plain TCP
 * servers on 127.0.0.1, closed by the test.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlTarget } from '../control/control-server.js';
import { createRecordingBridge } from '../../../test/support/recording-bridge.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { occupiedPort, releasePorts } from '../../../test/support/occupied-port.js';
import { startUiServer, type UiServer } from './ui-server.js';
import { PortInUseError } from './port-in-use.js';

const target: ControlTarget = { ...createRecordingBridge(), copyInStream: async (request) => ({ relPath: request.relPath }), conflictPreview: async () => undefined };
const open: UiServer[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((ui) => ui.server.close()));
  await releasePorts();
});

async function start(stateDir: string, options: { port?: number } = {}): Promise<UiServer> {
  const ui = await startUiServer({ stateDir, target, staticDir: join(stateDir, 'no-ui'), firstPort: 0, ...options });
  open.push(ui);
  return ui;
}

async function stop(ui: UiServer): Promise<void> {
  open.splice(open.indexOf(ui), 1);
  await ui.server.close();
}


/** The session cookie the printed window link hands out, as `name=value`. */
function login(ui: UiServer): Promise<string> {
  const link = new URL(ui.server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: ui.server.port, path: `${link.pathname}${link.search}`, headers: { host: `127.0.0.1:${ui.server.port}` } }, (res) => {
      res.resume();
      resolve(res.headers['set-cookie']?.[0]?.split(';')[0] ?? '');
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status of a command sent with the cookie. */
function statusWith(ui: UiServer, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: ui.server.port, method: 'POST', path: '/api/getState', headers: { host: `127.0.0.1:${ui.server.port}`, cookie, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the browser UI address', () => {
  it('stays at the port it first got, and lets a browser with a cookie of the last start in', async () => {
    const stateDir = tempDir('ui-server-');
    const first = await start(stateDir);
    const cookie = await login(first);
    expect(await statusWith(first, cookie)).toBe(200);
    expect(statSync(join(stateDir, 'ui.json')).mode & 0o777).toBe(0o600);
    const kept = readFileSync(join(stateDir, 'ui.json'), 'utf8');
    expect(kept).not.toContain(first.server.cliKey);
    expect(kept).not.toContain(new URL(first.server.url).searchParams.get('secret'));
    await stop(first);

    const second = await start(stateDir);
    expect(second.server.origin).toBe(first.server.origin);
    expect(second.homeTaken).toBeUndefined();
    // New keys every start (the printed link is for this run), the old tab's cookie still good.
    expect(second.server.cliKey).not.toBe(first.server.cliKey);
    expect(second.server.url).not.toBe(first.server.url);
    expect(await statusWith(second, cookie)).toBe(200);
  });

  it('takes a free port for this run when another program holds the home port, and keeps the home', async () => {
    const stateDir = tempDir('ui-server-');
    const first = await start(stateDir);
    const home = first.server.port;
    await stop(first);
    await occupiedPort(home);

    const moved = await start(stateDir);
    expect(moved.homeTaken).toBe(home);
    expect(moved.server.port).not.toBe(home);
    expect(JSON.parse(readFileSync(join(stateDir, 'ui.json'), 'utf8')).port).toBe(home);
  });

  it('refuses a named port that is taken (PORT_IN_USE), and makes a free named port the home', async () => {
    const stateDir = tempDir('ui-server-');
    const busy = await occupiedPort();
    const refusal = await start(stateDir, { port: busy }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PortInUseError);
    expect(refusal).toMatchObject({ code: 'PORT_IN_USE', role: 'ui', port: busy });

    const named = await start(stateDir, { port: 0 });
    const port = named.server.port;
    await stop(named);
    const again = await start(stateDir, { port });
    await stop(again);
    expect((await start(stateDir)).server.port).toBe(port);
  });

  it('trusts no cookie key from a ui.json that others can read: every browser signs in again', async () => {
    const stateDir = tempDir('ui-server-');
    const first = await start(stateDir);
    const cookie = await login(first);
    await stop(first);
    const path = join(stateDir, 'ui.json');
    writeFileSync(path, readFileSync(path, 'utf8'));
    chmodSync(path, 0o644);

    const second = await start(stateDir);
    expect(second.server.port).toBe(first.server.port);
    expect(await statusWith(second, cookie)).toBe(401);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

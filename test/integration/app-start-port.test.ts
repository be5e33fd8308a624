/**
 * `asset-sync start` and its ports: a port another program holds is refused with PORT_IN_USE and the
 * flag that picks another one, and a port flag that is not a port is a usage error naming the flag.
 * The browser UI's usual port, when taken, gives way to a free one for that run, and the app says so.
 * Each busy port here is a plain TCP server on 127.0.0.1, closed by the test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { recordingIo } from '../support/fake-io.js';
import { tempDir } from '../support/temp-dir.js';
import { occupiedPort, releasePorts } from '../support/occupied-port.js';

afterEach(releasePorts);

function startArgs(base: string, extra: string[]): string[] {
  return ['start', '--headless', '--no-open', '--state', join(base, 'state'), '--data', join(base, 'data'), '--folder', join(base, 'Asset Sync'), ...extra];
}

describe('asset-sync start on a busy port', () => {
  it("names the local library's busy port and how to start on another", { timeout: 60_000 }, async () => {
    const base = tempDir('asset-sync-start-port-');
    const port = await occupiedPort();
    const io = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    expect(await main(startArgs(base, ['--port', String(port)]), io)).toBe(1);
    expect(io.outLines).toEqual([]);
    expect(io.errLines).toEqual([
      `asset-sync: Port ${port} on 127.0.0.1 is in use (another Asset Sync, or another program). Start on another port with \`asset-sync start --port ${port + 1}\` (\`npm start -- --port ${port + 1}\`), or stop the program using it. [PORT_IN_USE]`,
    ]);
    // It stopped cleanly: no app.json left pointing at a window that is not there.
    expect(existsSync(join(base, 'state', 'app.json'))).toBe(false);
  });

  it("says the same when the library was in use before (a restart), rather than running without it", { timeout: 60_000 }, async () => {
    const base = tempDir('asset-sync-start-port-');
    const first = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    const running = main(startArgs(base, ['--port', '0']), first);
    await expect.poll(() => first.outLines.some((line) => line.includes('/?secret=')), { timeout: 30_000 }).toBe(true);
    first.interrupt();
    expect(await running).toBe(0);

    const port = await occupiedPort();
    const io = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    expect(await main(startArgs(base, ['--port', String(port)]), io)).toBe(1);
    expect(io.outLines).toEqual([]);
    expect(io.errLines.at(-1)).toMatch(new RegExp(`^asset-sync: Port ${port} on 127\\.0\\.0\\.1 is in use .*\`asset-sync start --port ${port + 1}\`.* \\[PORT_IN_USE\\]$`));
  });

  it("names the UI's busy port and --ui-port", { timeout: 60_000 }, async () => {
    const base = tempDir('asset-sync-start-port-');
    const port = await occupiedPort();
    const io = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    expect(await main(startArgs(base, ['--port', '0', '--ui-port', String(port)]), io)).toBe(1);
    expect(io.outLines).toEqual([]);
    expect(io.errLines.at(-1)).toBe(
      `asset-sync: Port ${port} on 127.0.0.1 is in use (another Asset Sync, or another program). Start on another port with \`asset-sync start --ui-port ${port + 1}\` (\`npm start -- --ui-port ${port + 1}\`), or stop the program using it. [PORT_IN_USE]`,
    );
  });
});

describe('asset-sync start at its usual address', () => {
  it("starts the window at a free port when its usual one is taken, and says where and how to choose", { timeout: 60_000 }, async () => {
    const base = tempDir('asset-sync-start-port-');
    const first = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    const running = main(startArgs(base, ['--port', '0', '--ui-port', '0']), first);
    await expect.poll(() => first.outLines.some((line) => line.includes('/?secret=')), { timeout: 30_000 }).toBe(true);
    const usual = Number(/127\.0\.0\.1:(\d+)\//.exec(first.outLines.join('\n'))?.[1]);
    first.interrupt();
    expect(await running).toBe(0);

    await occupiedPort(usual);
    const io = recordingIo({ ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' });
    const again = main(startArgs(base, ['--port', '0']), io);
    await expect.poll(() => io.outLines.some((line) => line.includes('/?secret=')), { timeout: 30_000 }).toBe(true);
    const now = Number(/127\.0\.0\.1:(\d+)\//.exec(io.outLines.join('\n'))?.[1]);
    expect(now).not.toBe(usual);
    expect(io.errLines).toContain(
      `The window's usual port ${usual} is in use (another Asset Sync, or another program), so this time it is at http://127.0.0.1:${now}: tabs open at the usual address will not find it. Start with --ui-port N to choose the port.`,
    );
    io.interrupt();
    expect(await again).toBe(0);
  });
});

describe('asset-sync start port flags', () => {
  it.each([
    [['--port', 'abc'], '--port', 'must be a port number'],
    [['--port', '70000'], '--port', 'must be a port number from 1 to 65535 (0 picks a free one), got "70000"'],
    [['--port', '-1'], '--port', 'needs a value; to give one that starts with a dash, write --port=VALUE'],
    [['--port=-1'], '--port', 'must be a port number'],
    [['--port', '1.5'], '--port', 'must be a port number'],
    [['--port', ''], '--port', 'must be a port number'],
    [['--port'], '--port', 'needs a value'],
    [['--ui-port', 'http'], '--ui-port', 'must be a port number'],
    [['--ui-port', '65536'], '--ui-port', 'must be a port number'],
  ])('refuses %j with a usage error naming %s', async (flags, flag, reason) => {
    const base = tempDir('asset-sync-start-port-');
    const io = recordingIo();
    expect(await main(startArgs(base, flags), io)).toBe(2);
    expect(io.outLines).toEqual([]);
    expect(io.errLines.join('\n')).toContain(flag);
    expect(io.errLines.join('\n')).toContain(reason);
    expect(io.errLines.join('\n')).toContain('[USAGE]');
    // Nothing was started or created.
    expect(existsSync(join(base, 'state'))).toBe(false);
    expect(existsSync(join(base, 'data'))).toBe(false);
  });
});

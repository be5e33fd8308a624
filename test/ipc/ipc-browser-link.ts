/**
 * Joins a Chromium page to the real main-side IPC transport (src/main/desktop/ipc-main-transport.ts) for
 * the IPC browser tests: builds the real preload with the renderer-side stand-in of `electron`
 * (electron-renderer-stand-in.ts) and injects it before any page script, as Electron would; the page's
 * ipcRenderer calls arrive through `page.exposeBinding` at a stand-in ipcMain, with the sending frame's
 * real URL and parent, so the sender check runs on what Chromium reports. Events go back by evaluate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import type { AppBridge } from '../../src/shared/bridge/app-bridge.js';
import { serveBridgeOverIpc, type IpcMainLike, type IpcTransport } from '../../src/main/desktop/ipc-main-transport.js';
import { isTrustedSender, type IpcEventLike } from '../../src/main/desktop/sender-check.js';
import { tempDir } from '../support/temp-dir.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The real preload, bundled with the browser-side stand-in of electron (built once per test file). */
export function buildTestPreload(): string {
  const dir = tempDir('asset-sync-preload-');
  try {
    const out = join(dir, 'preload.cjs');
    execFileSync(process.execPath, [join(repo, 'resources/build-preload.js'), '--out', out, '--electron', join(repo, 'test/ipc/electron-renderer-stand-in.ts')], { stdio: 'pipe' });
    // The bundle is CommonJS with nothing left to require: wrap it so it runs as a classic script.
    return `(() => { const module = { exports: {} }; const exports = module.exports; ${readFileSync(out, 'utf8')}\n})();`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Listener = (event: IpcEventLike, ...args: unknown[]) => unknown;

export interface LinkedPage {
  transport: IpcTransport;
  /** Messages main refused, in words. */
  refused: string[];
}

/** Serves `bridge` to `page` over the stand-in IPC; `pageUrl` is the only page the sender check trusts. */
export async function linkPage(page: Page, options: { bridge: AppBridge; preload: string; pageUrl: string }): Promise<LinkedPage> {
  const handlers = new Map<string, Listener>();
  const listeners = new Map<string, Set<Listener>>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
    on: (channel, listener) => void listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => void listeners.get(channel)?.delete(listener),
  };
  const WEB_CONTENTS_ID = 1;
  const sender = {
    id: WEB_CONTENTS_ID,
    isDestroyed: () => page.isClosed(),
    send(channel: string, ...args: unknown[]) {
      page.evaluate(([c, a]) => (globalThis as unknown as { __assetSyncIpcDeliver(c: string, a: unknown[]): void }).__assetSyncIpcDeliver(c, a), [channel, args] as const).catch(() => undefined);
    },
  };
  const eventFrom = (frame: Frame): IpcEventLike => ({ sender, senderFrame: { url: frame.url(), parent: frame.parentFrame() } });

  await page.exposeBinding('__assetSyncIpcInvoke', async (source, channel: string, args: unknown[]) => {
    const handler = handlers.get(channel);
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
    return handler(eventFrom(source.frame), ...args);
  });
  await page.exposeBinding('__assetSyncIpcSend', (source, channel: string, args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener(eventFrom(source.frame), ...args);
  });
  await page.addInitScript({ content: options.preload });

  const refused: string[] = [];
  const transport = serveBridgeOverIpc({
    ipcMain,
    bridge: options.bridge,
    isTrusted: (event) => isTrustedSender(event, { webContentsId: () => WEB_CONTENTS_ID, pageUrl: options.pageUrl }),
    onRefused: (what) => refused.push(what),
  });
  page.once('close', () => {
    transport.close();
  });
  return { transport, refused };
}

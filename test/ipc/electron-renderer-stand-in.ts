/**
 * The `electron` module as the preload sees it, for the IPC browser tests: bundled INTO the real
 * preload (resources/build-preload.js --electron) and run in real Chromium. `ipcRenderer` goes out
 * through the page bindings test/ipc/ipc-browser-link.ts installs (`page.exposeBinding`), where a
 * stand-in ipcMain hands each message to the real main-side transport with the sending frame's URL;
 * main's `sender.send` comes back in through `__assetSyncIpcDeliver`. contextBridge only defines the
 * global (Chromium here has no isolated world for it), which is all the renderer relies on.
 */
type Listener = (event: unknown, ...args: unknown[]) => void;

interface LinkGlobals {
  __assetSyncIpcInvoke(channel: string, args: unknown[]): Promise<unknown>;
  __assetSyncIpcSend(channel: string, args: unknown[]): Promise<void>;
  __assetSyncIpcDeliver?: (channel: string, args: unknown[]) => void;
}

const link = globalThis as unknown as LinkGlobals;
const listeners = new Map<string, Set<Listener>>();

link.__assetSyncIpcDeliver = (channel, args) => {
  for (const listener of listeners.get(channel) ?? []) listener({}, ...args);
};

export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    Object.defineProperty(globalThis, key, { value: api, writable: false, configurable: false, enumerable: false });
  },
};

export const ipcRenderer = {
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    return link.__assetSyncIpcInvoke(channel, args);
  },
  send(channel: string, ...args: unknown[]): void {
    void link.__assetSyncIpcSend(channel, args);
  },
  on(channel: string, listener: Listener): void {
    const set = listeners.get(channel) ?? new Set();
    set.add(listener);
    listeners.set(channel, set);
  },
};

export const webUtils = {
  getPathForFile(): string {
    return '';
  },
};

/**
 * An in-memory ipcMain / ipcRenderer pair, a stand-in for Electron's IPC in unit tests: invoke and
 * send from the "renderer" reach the "main" handlers with an event whose sender and senderFrame the
 * test chooses (our window, a subframe, a foreign page), and `sender.send` reaches the renderer's
 * listeners. Arguments go through structuredClone, as Electron's IPC would.
 */
import type { IpcMainLike } from '../../src/main/desktop/ipc-main-transport.js';
import type { IpcRendererLike } from '../../src/main/desktop/preload-bridge.js';
import type { IpcEventLike, SenderFrameLike } from '../../src/main/desktop/sender-check.js';

type Listener = (event: IpcEventLike, ...args: unknown[]) => unknown;

export interface IpcPair {
  ipcMain: IpcMainLike & { handlers: Map<string, Listener>; listeners: Map<string, Set<Listener>> };
  ipcRenderer: IpcRendererLike;
  /** What the main side sees as the sender; tests change `frame` and `id` to play another page. */
  sender: { id: number; destroyed: boolean; frame: SenderFrameLike | null; sent: { channel: string; args: unknown[] }[] };
}

export function createIpcPair(options: { id?: number; frameUrl: string }): IpcPair {
  const handlers = new Map<string, Listener>();
  const listeners = new Map<string, Set<Listener>>();
  const rendererListeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const sender: IpcPair['sender'] = { id: options.id ?? 1, destroyed: false, frame: { url: options.frameUrl, parent: null }, sent: [] };

  const event = (): IpcEventLike => ({
    sender: {
      id: sender.id,
      isDestroyed: () => sender.destroyed,
      send(channel, ...args) {
        sender.sent.push({ channel, args });
        for (const listener of rendererListeners.get(channel) ?? []) listener({}, ...structuredClone(args));
      },
    },
    senderFrame: sender.frame,
  });

  const ipcMain: IpcPair['ipcMain'] = {
    handlers,
    listeners,
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };

  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(await handler(event(), ...structuredClone(args)));
    },
    send(channel, ...args) {
      for (const listener of listeners.get(channel) ?? []) listener(event(), ...structuredClone(args));
    },
    on(channel, listener) {
      const set = rendererListeners.get(channel) ?? new Set();
      set.add(listener);
      rendererListeners.set(channel, set);
    },
  };

  return { ipcMain, ipcRenderer, sender };
}

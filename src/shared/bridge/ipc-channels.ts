/**
 * Every Electron IPC channel name of the bridge, in this one file (STYLE.md "channel names appear in
 * one file"), derived from `bridgeMethods` so a new bridge method gets its channel by construction.
 * The preload (src/main/desktop/preload.ts) and the main side (src/main/desktop/ipc-main-transport.ts) both
 * read them from here; nothing else names a channel.
 *
 * Answers travel as an `IpcReply` envelope rather than as a rejected promise, because Electron turns a
 * rejection into a plain Error whose message is prefixed and whose `code` is lost.
 */
import { bridgeMethods, type AppBridge, type BridgeMethod } from './app-bridge.js';
import type { AppEvent } from './app-events.js';
import type { BridgeErrorData } from './app-state.js';

export const IPC_PREFIX = 'asset-sync:';

/** The invoke channel of one bridge method. */
export type IpcMethodChannel = `asset-sync:call:${BridgeMethod}`;

export function ipcChannel(method: BridgeMethod): IpcMethodChannel {
  return `asset-sync:call:${method}`;
}

/** The method a channel belongs to, or undefined for any other name. */
export function methodOfChannel(channel: string): BridgeMethod | undefined {
  return bridgeMethods.find((method) => ipcChannel(method) === channel);
}

/** Renderer → main (send): start a subscription; the argument is the page's subscription number. */
export const SUBSCRIBE_CHANNEL = 'asset-sync:subscribe';
/** Renderer → main (send): end a subscription by its number. */
export const UNSUBSCRIBE_CHANNEL = 'asset-sync:unsubscribe';
/** Main → renderer (send): one event of one subscription, as an `IpcEventMessage`. */
export const EVENT_CHANNEL = 'asset-sync:event';

/** Every channel name, for tests and for the main side's clean-up. */
export const ipcChannelNames: readonly string[] = [...bridgeMethods.map(ipcChannel), SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, EVENT_CHANNEL];

/** The answer to an invoke: the method's value, or its error as plain data. */
export type IpcReply<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeErrorData };

/** What main sends on EVENT_CHANNEL. */
export interface IpcEventMessage {
  subscription: number;
  event: AppEvent;
}

/** A dropped file's bytes as they cross IPC (a Blob does not): main turns them back into a Blob. */
export type WireCopyItem = { kind: 'path'; path: string } | { kind: 'bytes'; relPath: string; lastModified: number; body: Uint8Array };

type ReplyOf<M extends BridgeMethod> = Promise<IpcReply<Awaited<ReturnType<AppBridge[M]>>>>;

/**
 * What the preload exposes as `window.assetSyncBridge`: exactly the bridge's methods, each answering
 * an `IpcReply` (contextBridge would drop a thrown error's `code`), and `subscribe`. The renderer wraps
 * it back into an `AppBridge` with `createIpcBridge` (src/renderer/transport/ipc-bridge.ts).
 */
export type ExposedBridge = { [M in Exclude<BridgeMethod, 'copyIn'>]: (...args: Parameters<AppBridge[M]>) => ReplyOf<M> } & {
  copyIn(request: { folderId: string; relDir: string; items: WireCopyItem[] }): ReplyOf<'copyIn'>;
  subscribe(listener: (event: AppEvent) => void): () => void;
};

/** The global names the preload sets in the window. */
export const EXPOSED_BRIDGE = 'assetSyncBridge';
export const EXPOSED_PATH_FOR_FILE = 'assetSyncPathForFile';

/**
 * The object the preload exposes to the window (`ExposedBridge`): one function per bridge method that
 * invokes its channel, and `subscribe` multiplexed over one event channel. It holds no raw ipcRenderer
 * reference the page could reach: only these closures cross contextBridge.
 *
 * Bundled into the preload script (sandboxed preloads cannot load other files); no Node imports.
 */
import type { AppEvent } from '../../shared/bridge/app-events.js';
import { isBridgeErrorData } from '../../shared/bridge/bridge-error.js';
import {
  EVENT_CHANNEL,
  SUBSCRIBE_CHANNEL,
  UNSUBSCRIBE_CHANNEL,
  ipcChannel,
  type ExposedBridge,
  type IpcEventMessage,
  type IpcReply,
} from '../../shared/bridge/ipc-channels.js';
import type { BridgeMethod } from '../../shared/bridge/app-bridge.js';

/** What the preload uses of Electron's ipcRenderer. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function isReply(value: unknown): value is IpcReply {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && 'error' in value && isBridgeErrorData(value.error);
}

function isEventMessage(value: unknown): value is IpcEventMessage {
  return typeof value === 'object' && value !== null && 'subscription' in value && typeof value.subscription === 'number' && 'event' in value;
}

export function createExposedBridge(ipc: IpcRendererLike): ExposedBridge {
  const invoke = async <T>(method: BridgeMethod, args: unknown[]): Promise<IpcReply<T>> => {
    let answer: unknown;
    try {
      answer = await ipc.invoke(ipcChannel(method), ...args);
    } catch (error) {
      return { ok: false, error: { name: 'BridgeError', code: 'TRANSPORT_CLOSED', message: `The app did not answer (${error instanceof Error ? error.message : String(error)}).` } };
    }
    if (!isReply(answer)) return { ok: false, error: { name: 'BridgeError', code: 'INTERNAL', message: 'The app answered something the window cannot read.' } };
    // Main answers each channel with its method's value (ipc-main-transport.ts dispatch), so the
    // envelope's value has the method's type by construction.
    return answer as IpcReply<T>;
  };

  const listeners = new Map<number, (event: AppEvent) => void>();
  let nextSubscription = 1;
  ipc.on(EVENT_CHANNEL, (_event, message) => {
    if (!isEventMessage(message)) return;
    listeners.get(message.subscription)?.(message.event);
  });

  return {
    getState: () => invoke('getState', []),
    listActivity: (query) => invoke('listActivity', [query]),
    addFolder: (request) => invoke('addFolder', [request]),
    removeFolder: (request) => invoke('removeFolder', [request]),
    updateFolder: (request) => invoke('updateFolder', [request]),
    pause: (request) => invoke('pause', [request]),
    resume: (request) => invoke('resume', [request]),
    syncNow: (request) => invoke('syncNow', [request]),
    resolveConflict: (request) => invoke('resolveConflict', [request]),
    retry: (request) => invoke('retry', [request]),
    confirmDeletions: (request) => invoke('confirmDeletions', [request]),
    restoreDeletions: (request) => invoke('restoreDeletions', [request]),
    copyIn: (request) => invoke('copyIn', [request]),
    signIn: (request) => invoke('signIn', [request]),
    useLocalLibrary: () => invoke('useLocalLibrary', []),
    signOut: () => invoke('signOut', []),
    updateSettings: (patch) => invoke('updateSettings', [patch]),
    openPath: (request) => invoke('openPath', [request]),
    openConflictVersion: (request) => invoke('openConflictVersion', [request]),
    searchAssets: (request) => invoke('searchAssets', [request]),
    listPresets: () => invoke('listPresets', []),
    quickDownload: (request) => invoke('quickDownload', [request]),
    revealDownload: (request) => invoke('revealDownload', [request]),
    subscribe(listener) {
      const subscription = nextSubscription++;
      listeners.set(subscription, listener);
      ipc.send(SUBSCRIBE_CHANNEL, subscription);
      return () => {
        if (!listeners.delete(subscription)) return;
        ipc.send(UNSUBSCRIBE_CHANNEL, subscription);
      };
    },
  };
}

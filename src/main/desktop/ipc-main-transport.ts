/**
 * The main-process side of the bridge over Electron IPC: one `handle` per bridge method (channel names
 * from src/shared/bridge/ipc-channels.ts), each message's sender checked (our window, our page) and its
 * arguments validated before the controller sees them, and every answer an `IpcReply` envelope whose
 * error is plain `{ name, code, message }`. Subscriptions are per sender and per subscription number,
 * and end when the page unsubscribes, reloads or its web contents go away.
 *
 * Takes an `IpcMainLike` rather than importing electron, so it is tested with a stand-in.
 */
import { bridgeMethods, type AppBridge, type BridgeMethod } from '../../shared/bridge/app-bridge.js';
import { BridgeError, toBridgeError } from '../../shared/bridge/bridge-error.js';
import { EVENT_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, ipcChannel, type IpcEventMessage, type IpcReply } from '../../shared/bridge/ipc-channels.js';
import { parseArguments } from './ipc-requests.js';
import type { IpcEventLike } from './sender-check.js';

type IpcListener = (event: IpcEventLike, ...args: unknown[]) => unknown;

/** What the transport uses of Electron's ipcMain. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): unknown;
}

export interface IpcTransportOptions {
  ipcMain: IpcMainLike;
  bridge: AppBridge;
  /** The sender check (sender-check.ts's isTrustedSender bound to our window). */
  isTrusted(event: IpcEventLike): boolean;
  /** Told about refused messages (never their arguments, which may hold paths or secrets). */
  onRefused?(what: string): void;
}

export interface IpcTransport {
  /** Ends every subscription of one web contents (it navigated, reloaded or was destroyed). */
  forgetSender(senderId: number): void;
  /** Removes every handler and ends every subscription. */
  close(): void;
}

const untrusted: IpcReply = {
  ok: false,
  error: new BridgeError('UNTRUSTED_SENDER', 'The app refused a message that did not come from its own window.').toJSON(),
};

export function serveBridgeOverIpc(options: IpcTransportOptions): IpcTransport {
  const { ipcMain, bridge } = options;
  /** senderId → subscription number → unsubscribe. */
  const subscriptions = new Map<number, Map<number, () => void>>();

  /** Each method called with its checked arguments: explicit, so no cast stands between IPC and the controller. */
  const dispatch: { [M in BridgeMethod]: (args: Parameters<AppBridge[M]>) => Promise<unknown> } = {
    getState: () => bridge.getState(),
    listActivity: ([query]) => bridge.listActivity(query),
    addFolder: ([request]) => bridge.addFolder(request),
    removeFolder: ([request]) => bridge.removeFolder(request),
    updateFolder: ([request]) => bridge.updateFolder(request),
    pause: ([request]) => bridge.pause(request),
    resume: ([request]) => bridge.resume(request),
    syncNow: ([request]) => bridge.syncNow(request),
    resolveConflict: ([request]) => bridge.resolveConflict(request),
    retry: ([request]) => bridge.retry(request),
    confirmDeletions: ([request]) => bridge.confirmDeletions(request),
    restoreDeletions: ([request]) => bridge.restoreDeletions(request),
    copyIn: ([request]) => bridge.copyIn(request),
    signIn: ([request]) => bridge.signIn(request),
    useLocalLibrary: () => bridge.useLocalLibrary(),
    signOut: () => bridge.signOut(),
    updateSettings: ([patch]) => bridge.updateSettings(patch),
    openPath: ([request]) => bridge.openPath(request),
    openConflictVersion: ([request]) => bridge.openConflictVersion(request),
    searchAssets: ([request]) => bridge.searchAssets(request),
    listPresets: () => bridge.listPresets(),
    quickDownload: ([request]) => bridge.quickDownload(request),
    revealDownload: ([request]) => bridge.revealDownload(request),
  };

  // M ties the parsed arguments to the method's entry in `dispatch`; without it the call does not type-check.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  const call = <M extends BridgeMethod>(method: M, args: unknown[]): Promise<unknown> => {
    const run: (parsed: Parameters<AppBridge[M]>) => Promise<unknown> = dispatch[method];
    return run(parseArguments(method, args));
  };

  for (const method of bridgeMethods) {
    ipcMain.handle(ipcChannel(method), async (event, ...args): Promise<IpcReply> => {
      if (!options.isTrusted(event)) {
        options.onRefused?.(`${method} from an untrusted sender`);
        return untrusted;
      }
      try {
        return { ok: true, value: await call(method, args) };
      } catch (error) {
        return { ok: false, error: toBridgeError(error) };
      }
    });
  }

  const subscribe: IpcListener = (event, subscription) => {
    if (!options.isTrusted(event)) {
      options.onRefused?.('a subscription from an untrusted sender');
      return;
    }
    if (typeof subscription !== 'number' || !Number.isSafeInteger(subscription)) {
      options.onRefused?.('a subscription without a number');
      return;
    }
    const sender = event.sender;
    let ofSender = subscriptions.get(sender.id);
    if (ofSender === undefined) {
      ofSender = new Map();
      subscriptions.set(sender.id, ofSender);
    }
    if (ofSender.has(subscription)) return;
    const unsubscribe = bridge.subscribe((appEvent) => {
      if (sender.isDestroyed()) return;
      const message: IpcEventMessage = { subscription, event: appEvent };
      sender.send(EVENT_CHANNEL, message);
    });
    ofSender.set(subscription, unsubscribe);
  };

  const unsubscribe: IpcListener = (event, subscription) => {
    if (!options.isTrusted(event)) return;
    const ofSender = subscriptions.get(event.sender.id);
    if (ofSender === undefined || typeof subscription !== 'number') return;
    ofSender.get(subscription)?.();
    ofSender.delete(subscription);
  };

  ipcMain.on(SUBSCRIBE_CHANNEL, subscribe);
  ipcMain.on(UNSUBSCRIBE_CHANNEL, unsubscribe);

  const forgetSender = (senderId: number): void => {
    const ofSender = subscriptions.get(senderId);
    if (ofSender === undefined) return;
    for (const end of ofSender.values()) end();
    subscriptions.delete(senderId);
  };

  return {
    forgetSender,
    close() {
      for (const method of bridgeMethods) ipcMain.removeHandler(ipcChannel(method));
      ipcMain.removeListener(SUBSCRIBE_CHANNEL, subscribe);
      ipcMain.removeListener(UNSUBSCRIBE_CHANNEL, unsubscribe);
      for (const senderId of [...subscriptions.keys()]) forgetSender(senderId);
    },
  };
}

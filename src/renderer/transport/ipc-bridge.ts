/**
 * The renderer side of the Electron transport: wraps the preload's `window.assetSyncBridge`
 * (`ExposedBridge`, whose methods answer `IpcReply` envelopes because contextBridge drops an error's
 * `code`) back into an `AppBridge` that rejects with real `BridgeError`s. Dropped bytes become a
 * Uint8Array here, because a Blob does not cross IPC.
 */
import type { AppBridge, CopyItem } from '../../shared/bridge/app-bridge.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import type { ExposedBridge, IpcReply, WireCopyItem } from '../../shared/bridge/ipc-channels.js';

async function unwrap<T>(reply: Promise<IpcReply<T>>): Promise<T> {
  const answer = await reply;
  if (answer.ok) return answer.value;
  throw new BridgeError(answer.error.code, answer.error.message, answer.error.name);
}

async function toWire(item: CopyItem): Promise<WireCopyItem> {
  if (item.kind === 'path') return item;
  return { kind: 'bytes', relPath: item.relPath, lastModified: item.lastModified, body: new Uint8Array(await item.body.arrayBuffer()) };
}

export function createIpcBridge(exposed: ExposedBridge): AppBridge {
  return {
    getState: () => unwrap(exposed.getState()),
    listActivity: (query) => unwrap(exposed.listActivity(query)),
    addFolder: (request) => unwrap(exposed.addFolder(request)),
    removeFolder: (request) => unwrap(exposed.removeFolder(request)),
    updateFolder: (request) => unwrap(exposed.updateFolder(request)),
    pause: (request) => unwrap(exposed.pause(request)),
    resume: (request) => unwrap(exposed.resume(request)),
    syncNow: (request) => unwrap(exposed.syncNow(request)),
    resolveConflict: (request) => unwrap(exposed.resolveConflict(request)),
    retry: (request) => unwrap(exposed.retry(request)),
    confirmDeletions: (request) => unwrap(exposed.confirmDeletions(request)),
    restoreDeletions: (request) => unwrap(exposed.restoreDeletions(request)),
    copyIn: async (request) => unwrap(exposed.copyIn({ ...request, items: await Promise.all(request.items.map(toWire)) })),
    signIn: (request) => unwrap(exposed.signIn(request)),
    useLocalLibrary: () => unwrap(exposed.useLocalLibrary()),
    signOut: () => unwrap(exposed.signOut()),
    updateSettings: (patch) => unwrap(exposed.updateSettings(patch)),
    openPath: (request) => unwrap(exposed.openPath(request)),
    openConflictVersion: (request) => unwrap(exposed.openConflictVersion(request)),
    searchAssets: (request) => unwrap(exposed.searchAssets(request)),
    listPresets: () => unwrap(exposed.listPresets()),
    quickDownload: (request) => unwrap(exposed.quickDownload(request)),
    revealDownload: (request) => unwrap(exposed.revealDownload(request)),
    subscribe: (listener) => exposed.subscribe(listener),
  };
}

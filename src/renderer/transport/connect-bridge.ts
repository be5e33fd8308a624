/**
 * Picks the transport the window talks to the app through. Electron's preload exposes the bridge as
 * `window.assetSyncBridge` (its reply envelopes unwrapped by C's ipc-bridge.ts); any other browser
 * reaches the headless app's control server over HTTP (A's http-bridge.ts). `?demo=<scenario>` loads
 * the in-memory demo app instead, for screenshots, the browser tests of the UI alone and the UI
 * benches: it is a separate chunk, never loaded otherwise (`?demo=stopped` shows the calm app as a
 * window whose app has stopped). Each comes with its link (app-link.ts): only HTTP's can go down, and
 * only HTTP's page comes with a state of its own (page-state.ts).
 */
import type { ExposedBridge } from '../../shared/bridge/ipc-channels.js';
import { createLink, type Transport } from './app-link.js';
import { createHttpBridge } from './http-bridge.js';
import { createIpcBridge } from './ipc-bridge.js';
import { pageState } from './page-state.js';

declare global {
  interface Window {
    /** Set by the Electron preload (src/main/desktop/), through contextBridge: replies come as envelopes. */
    assetSyncBridge?: ExposedBridge;
    /** Set by the Electron preload when it can tell a dropped File's path (webUtils.getPathForFile). */
    assetSyncPathForFile?: (file: File) => string;
  }
}

export async function connectBridge(): Promise<Transport> {
  const demo = new URLSearchParams(location.search).get('demo');
  if (demo !== null) {
    const { createDemoBridge } = await import('./demo-bridge.js');
    return { bridge: createDemoBridge(demo === 'stopped' ? 'calm' : demo), link: createLink(demo === 'stopped' ? 'down' : 'up') };
  }
  // The main process cannot stop while its window lives: this link never goes down.
  if (window.assetSyncBridge !== undefined) return { bridge: createIpcBridge(window.assetSyncBridge), link: createLink('up') };
  const initialState = pageState(document);
  return { ...createHttpBridge(location), ...(initialState === undefined ? {} : { initialState }) };
}

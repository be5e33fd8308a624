/**
 * Picks the transport the window talks to the app through. Electron's preload exposes the bridge as
 * `window.assetSyncBridge`; any other browser reaches the headless app's control server over HTTP
 * (A's http-bridge.ts). `?demo=<scenario>` loads the in-memory demo app instead, for screenshots, the
 * browser tests of the UI alone and the UI benches: it is a separate chunk, never loaded otherwise.
 */
import type { AppBridge } from '../../shared/bridge/app-bridge.js';

declare global {
  interface Window {
    /** Set by the Electron preload (src/main/app/), through contextBridge. */
    assetSyncBridge?: AppBridge;
    /** Set by the Electron preload when it can tell a dropped File's path (webUtils.getPathForFile). */
    assetSyncPathForFile?: (file: File) => string;
  }
}

interface HttpBridgeModule {
  createHttpBridge(location: Location): AppBridge;
}

// Vite resolves the glob at build time: an empty record while http-bridge.ts does not exist yet.
const httpBridge = import.meta.glob<HttpBridgeModule>('./http-bridge.ts', { eager: true });

export class TransportUnavailableError extends Error {
  override readonly name = 'TransportUnavailableError';
  readonly code = 'TRANSPORT_UNAVAILABLE';
}

export async function connectBridge(): Promise<AppBridge> {
  const demo = new URLSearchParams(location.search).get('demo');
  if (demo !== null) {
    const { createDemoBridge } = await import('./demo-bridge.js');
    return createDemoBridge(demo);
  }
  if (window.assetSyncBridge !== undefined) return window.assetSyncBridge;
  const module = httpBridge['./http-bridge.ts'];
  if (module === undefined) throw new TransportUnavailableError('This window has no way to reach the Asset Sync app. Start it with `npm start` and open the address it prints.');
  return module.createHttpBridge(location);
}

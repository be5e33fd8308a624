/**
 * The window's preload (sandboxed, context-isolated): exposes exactly the bridge's methods as
 * `window.assetSyncBridge`, and `window.assetSyncPathForFile` so a dropped File becomes a path the app
 * copies from (webUtils.getPathForFile). Never exposes ipcRenderer itself. Bundled into one CommonJS
 * file by resources/build-preload.mjs, because a sandboxed preload cannot load other modules.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { EXPOSED_BRIDGE, EXPOSED_PATH_FOR_FILE } from '../../shared/bridge/ipc-channels.js';
import { createExposedBridge } from './preload-bridge.js';

contextBridge.exposeInMainWorld(EXPOSED_BRIDGE, createExposedBridge(ipcRenderer));
contextBridge.exposeInMainWorld(EXPOSED_PATH_FOR_FILE, (file: File): string => webUtils.getPathForFile(file));

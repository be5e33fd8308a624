/**
 * A drop on the window or on a folder row: read what was dropped, then ask the app to copy it into the
 * folder (never move). The outcome shows as a notice (where the files went, and the name each copy got
 * when its own was taken); the copies then appear in the activity list.
 */
import type { FolderView } from '../../shared/bridge/app-state.js';
import type { AppStore } from './app-store.svelte.js';
import { readDrop } from './drop-items.js';
import { copyOutcome } from '../../shared/bridge/copy-result.js';
import { baseName } from './format.js';

export function copyDrop(store: AppStore, folder: FolderView, transfer: DataTransfer, relDir = ''): void {
  const reading = readDrop(transfer);
  void store.run(`copy:${folder.id}`, `copy into ${baseName(folder.path)}`, async () => {
    const items = await reading;
    if (items.length === 0) return;
    const result = await store.bridge.copyIn({ folderId: folder.id, relDir, items });
    store.notify('ok', copyOutcome(result, baseName(folder.path)));
  });
}

/**
 * Turns a drop (DataTransfer) into the bridge's CopyItems. In Electron the preload may say a dropped
 * file's path (`window.assetSyncPathForFile`), and the app copies from disk; in a browser the bytes go
 * over the bridge, folders walked with webkitGetAsEntry so `Shots/a.png` keeps its folder.
 *
 * The entries must be taken from the DataTransfer during the drop event itself (it is emptied when
 * the handler returns), so `readDrop` grabs them synchronously and walks them afterwards.
 */
import type { CopyItem } from '../../shared/bridge/app-bridge.js';

/** Whether a drag carries files (not text or a link), to show the drop target only then. */
export function dragHasFiles(transfer: DataTransfer | null): boolean {
  return transfer !== null && Array.from(transfer.types).includes('Files');
}

export function readDrop(transfer: DataTransfer): Promise<CopyItem[]> {
  const pathForFile = window.assetSyncPathForFile;
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    const file = item.getAsFile();
    if (pathForFile !== undefined && file !== null) {
      const path = pathForFile(file);
      if (path !== '') {
        loose.push(file);
        continue;
      }
    }
    if (entry !== null) entries.push(entry);
    else if (file !== null) loose.push(file);
  }
  return collect(entries, loose, pathForFile);
}

async function collect(entries: FileSystemEntry[], loose: File[], pathForFile: ((file: File) => string) | undefined): Promise<CopyItem[]> {
  const items: CopyItem[] = loose.map((file) => {
    const path = pathForFile?.(file) ?? '';
    return path !== '' ? { kind: 'path', path } : { kind: 'bytes', relPath: file.name, lastModified: file.lastModified, body: file };
  });
  for (const entry of entries) await walk(entry, '', items);
  return items;
}

async function walk(entry: FileSystemEntry, parent: string, items: CopyItem[]): Promise<void> {
  const relPath = parent === '' ? entry.name : `${parent}/${entry.name}`;
  if (isFile(entry)) {
    const file = await new Promise<File>((resolve, reject) => {
      entry.file(resolve, reject);
    });
    items.push({ kind: 'bytes', relPath, lastModified: file.lastModified, body: file });
    return;
  }
  if (!isDirectory(entry)) return;
  const reader = entry.createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => {
      reader.readEntries(resolve, reject);
    });
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, relPath, items);
  }
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

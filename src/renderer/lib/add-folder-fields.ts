/**
 * The add-folder form's words that depend on where it runs and on what went wrong: an example path in
 * the form this computer writes paths (beside the folders already synced, when there are some), and
 * which field a refusal is about, so the field itself is marked invalid and points at the reason.
 */
import type { FolderView, HostInfo } from '../../shared/bridge/app-state.js';

/** An example "Folder on this computer": next to a synced folder, else in the platform's home. */
export function examplePath(platform: HostInfo['platform'], folders: readonly Pick<FolderView, 'path'>[]): string {
  const windows = platform === 'win32';
  const separator = windows ? '\\' : '/';
  const first = folders[0]?.path;
  const cut = first === undefined ? -1 : Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\'));
  if (first !== undefined && cut > 0) return `${first.slice(0, cut)}${first[cut] ?? separator}Design`;
  if (windows) return 'C:\\Users\\you\\Design';
  return platform === 'darwin' ? '/Users/you/Design' : '/home/you/Design';
}

/** Which field of the form a refusal is about (its code), to mark it: the folder, the service's folder, or both. */
export function refusedField(code: string): 'path' | 'remote' | 'both' {
  switch (code) {
    case 'INVALID_NAME':
      return 'remote';
    case 'FOLDERS_OVERLAP':
      return 'both';
    default:
      return 'path';
  }
}

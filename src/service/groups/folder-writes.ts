/**
 * Metadata writes by a folder-limited caller (groups/folder-scope.ts) may re-file an asset only among
 * the folders they reach: every Folders value they set must lie within their scope, and they cannot
 * clear or remove Folders values (that would take the asset out of their reach, and out of the reach
 * of the group that owns it). Unlimited callers are not checked. Checked before anything is written.
 */
import { ServiceError } from '../errors/service-error.js';
import type { FolderScopes, ScopedAccount } from './folder-scope.js';

export interface FolderWrite {
  fieldId: string;
  operation: 'REPLACE' | 'ADD' | 'REMOVE';
  values: readonly string[];
}

export function requireFolderWrites(scopes: FolderScopes, who: ScopedAccount, writes: readonly FolderWrite[]): void {
  const scope = who.folders;
  if (scope === null) return;
  for (const write of writes) {
    if (write.fieldId !== scope.foldersFieldId) continue;
    if (write.operation === 'REMOVE' || write.values.length === 0) {
      throw new ServiceError('FOLDER_OUT_OF_SCOPE', 'Your groups limit you to some folders: you can move assets between them but not take an asset out of its folders.');
    }
    const outside = write.values.find((folderId) => !scopes.contains(scope, folderId));
    if (outside !== undefined) throw new ServiceError('FOLDER_OUT_OF_SCOPE', `Folder ${JSON.stringify(outside)} is outside the folders your groups give you.`);
  }
}

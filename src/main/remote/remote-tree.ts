/**
 * The root's folder tree on the service, as local directories: walked from the root's option (never the
 * whole field when the root maps to a sub-folder) with one PARENT_ID search per parent, each value made a
 * safe local name, siblings with one name (as the disk compares names) told apart by option id, ignored folders left out with all
 * they contain. `diffFolderTrees` turns two such trees into what happened to each folder, so a folder
 * created, renamed, moved or removed on the service becomes the same change on disk.
 */
import type { AssetApi, FolderNode } from '../api/index.js';
import { walkFieldOptions } from '../api/index.js';
import type { RemoteFolderRow } from '../db/remote-repo.js';
import { disambiguate, localNameOf, type NameKey } from '../sync/local-names.js';

export async function walkRemoteTree(
  api: Pick<AssetApi, 'listFieldOptionChildren'>,
  fieldId: string,
  rootOption: string | null,
  ignores: (relPath: string, isDirectory: boolean) => boolean,
  nameKey?: NameKey,
): Promise<RemoteFolderRow[]> {
  return remoteTreeRows(await walkFieldOptions(api, fieldId, { rootId: rootOption }), rootOption, ignores, nameKey);
}

/**
 * The local directories of a walk's options (walkFieldOptions below `rootOption`): made apart from
 * the walk so that a tree known unchanged is mapped again, under the ignore rules and names of today,
 * without asking the service (remote-feed.ts).
 */
export function remoteTreeRows(
  nodes: readonly FolderNode[],
  rootOption: string | null,
  ignores: (relPath: string, isDirectory: boolean) => boolean,
  nameKey?: NameKey,
): RemoteFolderRow[] {
  const children = new Map<string | null, { id: string; value: string }[]>();
  for (const node of nodes) {
    const parent = node.parentId === rootOption ? null : node.parentId;
    children.set(parent, [...(children.get(parent) ?? []), { id: node.option.id, value: node.option.value }]);
  }
  const rows: RemoteFolderRow[] = [];
  const visit = (parentId: string | null, parentDir: string): void => {
    const siblings = children.get(parentId) ?? [];
    const names = disambiguate(
      siblings.map((sibling) => ({ key: sibling.id, name: localNameOf(sibling.value) })),
      undefined,
      nameKey,
    );
    for (const sibling of siblings) {
      const relDir = `${parentDir === '' ? '' : `${parentDir}/`}${names.get(sibling.id) ?? localNameOf(sibling.value)}`;
      if (ignores(relDir, true)) continue;
      rows.push({ optionId: sibling.id, parentId, value: sibling.value, relDir });
      visit(sibling.id, relDir);
    }
  };
  visit(null, '');
  return rows;
}

export type FolderChange =
  | { kind: 'CREATED'; relDir: string; optionId: string }
  /** The folder itself was renamed or moved (its descendants follow it). */
  | { kind: 'MOVED'; from: string; to: string; optionId: string }
  | { kind: 'REMOVED'; relDir: string; optionId: string };

/**
 * What changed between the stored tree and a fresh one: parents before children for creations and
 * moves, children before parents for removals. A folder whose path changed only because an ancestor
 * moved is not listed (the ancestor's move carries it). With no stored tree every folder is new.
 */
export function diffFolderTrees(before: readonly RemoteFolderRow[], after: readonly RemoteFolderRow[]): FolderChange[] {
  const old = new Map(before.map((row) => [row.optionId, row]));
  const fresh = new Map(after.map((row) => [row.optionId, row]));
  const changes: FolderChange[] = [];
  for (const row of after) {
    const was = old.get(row.optionId);
    if (was === undefined) {
      changes.push({ kind: 'CREATED', relDir: row.relDir, optionId: row.optionId });
      continue;
    }
    if (was.relDir === row.relDir) continue;
    const parentBefore = was.parentId === null ? '' : old.get(was.parentId)?.relDir;
    const parentAfter = row.parentId === null ? '' : fresh.get(row.parentId)?.relDir;
    const parentMovedAlong = was.parentId === row.parentId && parentBefore !== parentAfter && baseOf(was.relDir) === baseOf(row.relDir);
    if (!parentMovedAlong) changes.push({ kind: 'MOVED', from: was.relDir, to: row.relDir, optionId: row.optionId });
  }
  const removed = before.filter((row) => !fresh.has(row.optionId)).sort((a, b) => depth(b.relDir) - depth(a.relDir));
  for (const row of removed) changes.push({ kind: 'REMOVED', relDir: row.relDir, optionId: row.optionId });
  return changes;
}

const baseOf = (relDir: string): string => relDir.slice(relDir.lastIndexOf('/') + 1);
const depth = (relDir: string): number => relDir.split('/').length;

/**
 * The root's folder tree on the service, as local directories: walked from the root's option (never the
 * whole field when the root maps to a sub-folder) with one PARENT_ID search per parent, each value made a
 * safe local name, siblings with one name (as the disk compares names) told apart by option id, ignored folders left out with all
 * they contain. Twins, siblings whose names differ only as the disk does not tell (`A` and `a` on a disk
 * that folds case), share one directory instead, spelled as the first of them in code-unit order (`A`):
 * which one was numbered `a (2)` followed their ids, and nothing a user does decides ids. `diffFolderTrees` turns two such trees into what happened to each folder, so a folder
 * created, renamed, moved or removed on the service becomes the same change on disk.
 */
import type { AssetApi, FolderNode } from '../api/index.js';
import { walkFieldOptions } from '../api/index.js';
import type { RemoteFolderRow } from '../db/remote-repo.js';
import { disambiguate, localNameOf, type NameKey } from '../local/local-names.js';

export async function walkRemoteTree(
  api: Pick<AssetApi, 'listFieldOptionChildren'>,
  fieldId: string,
  rootOption: string | null,
  ignores: (relPath: string, isDirectory: boolean) => boolean,
  nameKey?: NameKey,
  spelled?: SpelledOnDisk,
): Promise<RemoteFolderRow[]> {
  return remoteTreeRows(await walkFieldOptions(api, fieldId, { rootId: rootOption }), rootOption, ignores, nameKey, spelled);
}

/**
 * The local directories of a walk's options (walkFieldOptions below `rootOption`): made apart from
 * the walk so that a tree known unchanged is mapped again, under the ignore rules and names of today,
 * without asking the service (remote-feed.ts).
 */
export async function remoteTreeRows(
  nodes: readonly FolderNode[],
  rootOption: string | null,
  ignores: (relPath: string, isDirectory: boolean) => boolean,
  nameKey?: NameKey,
  spelled?: SpelledOnDisk,
): Promise<RemoteFolderRow[]> {
  const children = new Map<string | null, { id: string; value: string }[]>();
  for (const node of nodes) {
    const parent = node.parentId === rootOption ? null : node.parentId;
    children.set(parent, [...(children.get(parent) ?? []), { id: node.option.id, value: node.option.value }]);
  }
  const rows: RemoteFolderRow[] = [];
  /** `parents`: one option, or twins sharing the directory, whose children are its sub-folders. */
  const visit = async (parents: readonly (string | null)[], parentDir: string): Promise<void> => {
    const siblings = parents.flatMap((parentId) => (children.get(parentId) ?? []).map((child) => ({ ...child, parentId, name: localNameOf(child.value) })));
    const groups = twinGroups(siblings, nameKey);
    const twinNames = new Map<string, string>();
    for (const group of groups) {
      if (group.length < 2 || spelled === undefined) continue;
      // The disk holds one of the spellings already: it names the directory, or the planner would
      // move every file in it to the other spelling and back.
      const onDisk = await spelled(`${parentDir === '' ? '' : `${parentDir}/`}${group[0].name}`);
      if (onDisk !== undefined && group.some((member) => member.name === onDisk)) twinNames.set(group[0].id, onDisk);
    }
    const names = disambiguate(
      groups.map(([first]) => ({ key: first.id, name: twinNames.get(first.id) ?? first.name })),
      undefined,
      nameKey,
    );
    for (const group of groups) {
      const [first] = group;
      const relDir = `${parentDir === '' ? '' : `${parentDir}/`}${names.get(first.id) ?? twinNames.get(first.id) ?? first.name}`;
      if (ignores(relDir, true)) continue;
      for (const sibling of group) rows.push({ optionId: sibling.id, parentId: sibling.parentId, value: sibling.value, relDir });
      await visit(group.map((sibling) => sibling.id), relDir);
    }
  };
  await visit([null], '');
  return rows;
}

/**
 * Siblings grouped by the name the disk holds them under: a group of more than one is twins (names
 * that differ only in what the disk ignores, or one name under two twin parents: `A/C` and `a/C`), its
 * first in code-unit order naming the directory (unless the disk holds another of them: `spelled`). Names equal exactly under one parent (two values that
 * make one safe local name) are no twins: they stay apart and are numbered, as before.
 */
function twinGroups<T extends { id: string; name: string; parentId: string | null }>(siblings: readonly T[], nameKey: NameKey | undefined): [T, ...T[]][] {
  const byKey = new Map<string, T[]>();
  for (const sibling of siblings) {
    const key = nameKey === undefined ? sibling.name : nameKey(sibling.name);
    byKey.set(key, [...(byKey.get(key) ?? []), sibling]);
  }
  const groups: [T, ...T[]][] = [];
  for (const members of byKey.values()) {
    const distinct = new Set(members.map((member) => `${member.parentId ?? ''}\n${member.name}`)).size === members.length;
    const ordered = [...members].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (distinct) {
      const [first, ...rest] = ordered;
      if (first !== undefined) groups.push([first, ...rest]);
    } else {
      for (const member of members) groups.push([member]);
    }
  }
  return groups;
}

/** The name a directory has on disk where the disk folds case (`a` for `A`), if it is there. */
export type SpelledOnDisk = (relDir: string) => Promise<string | undefined>;

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

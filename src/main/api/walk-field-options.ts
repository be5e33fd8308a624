/**
 * Walks an option tree (the folders of the Folders field) level by level: the children of each option
 * come from one PARENT_ID search (AssetApi.listFieldOptionChildren), so the tree is right even where a
 * server reports no `parent` in search results. An option the service calls a leaf (no children, and
 * it said so: FieldOption.leaf) is not searched: most folders are leaves, and their searches were most
 * of a walk's calls. Works on any AssetApi, the in-memory twin included.
 * A few searches run at once; an option seen twice (a cycle or a move mid-walk) is visited once.
 */
import type { FieldOption } from '../../shared/api/resources.js';
import type { AssetApi } from './asset-api.js';

export interface FolderNode {
  option: FieldOption;
  /** The parent's id as the walk found it (null at the top level of the walk's root). */
  parentId: string | null;
  /** Values from the walk's root down to this option, itself included. */
  path: string[];
}

export interface WalkOptions {
  /** Start below this option instead of the field's top level. */
  rootId?: string | null;
  /** Searches in flight at once (default 4). */
  concurrency?: number;
  /** Deepest level to list (default 64, the remote-path limit). */
  maxDepth?: number;
}

/** Every option below the root, parents before children, siblings in position order. */
export async function walkFieldOptions(api: Pick<AssetApi, 'listFieldOptionChildren'>, fieldId: string, options: WalkOptions = {}): Promise<FolderNode[]> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxDepth = options.maxDepth ?? 64;
  const nodes: FolderNode[] = [];
  const seen = new Set<string>();
  let level: { id: string | null; path: string[] }[] = [{ id: options.rootId ?? null, path: [] }];

  for (let depth = 0; depth < maxDepth && level.length > 0; depth++) {
    const children: FolderNode[][] = new Array<FolderNode[]>(level.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < level.length) {
        const index = next++;
        const parent = level[index];
        if (parent === undefined) continue;
        const found = await api.listFieldOptionChildren(fieldId, parent.id);
        children[index] = found.map((option) => ({ option, parentId: parent.id, path: [...parent.path, option.value] }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, level.length) }, worker));
    const nextLevel: { id: string; path: string[] }[] = [];
    for (const group of children) {
      for (const node of group) {
        if (seen.has(node.option.id)) continue;
        seen.add(node.option.id);
        nodes.push(node);
        if (!node.option.leaf) nextLevel.push({ id: node.option.id, path: node.path });
      }
    }
    level = nextLevel;
  }
  return nodes;
}

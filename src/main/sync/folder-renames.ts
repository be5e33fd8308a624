/**
 * Local folder renames read off a pass's file moves (DESIGN.md §3: a folder rename or move is one
 * `PATCH /field-options/{id}`, and every asset in it follows). The planner sees files: `A/x.txt` →
 * `a/x.txt`, `A/B/y.txt` → `a/B/y.txt`. When every synced file under a folder moved to the same place
 * under one other folder, that folder was renamed (or moved) as a whole. Never file by file: the new
 * name would be a second option beside the old one, which stays while anything (a binned asset) uses
 * it, and two options `A` and `a` are twins a case-insensitive disk cannot tell apart.
 * Pure: the executor checks the service and the disk.
 */
import type { Operation } from './sync-types.js';

type MoveOp = Extract<Operation, { kind: 'MOVE' }>;

export interface FolderRename {
  from: string;
  to: string;
  /** The planned moves the rename carries (every synced file under `from`). */
  moves: MoveOp[];
}

/**
 * The folder each move leaves and enters, its file's path below them equal (`A/B/x` → `a/B/x`: `A`
 * and `a`); undefined for a move within a folder or to or from the root's top.
 */
export function folderPair(from: string, to: string): { from: string; to: string } | undefined {
  const a = from.split('/');
  const b = to.split('/');
  let common = 0;
  while (common < a.length - 1 && common < b.length - 1 && a[a.length - 1 - common] === b[b.length - 1 - common]) common++;
  if (common === 0) return undefined;
  const fromDir = a.slice(0, a.length - common).join('/');
  const toDir = b.slice(0, b.length - common).join('/');
  if (fromDir === '' || toDir === '' || fromDir === toDir) return undefined;
  // One inside the other (`A` → `A/B`) is not a rename of `A`.
  if (toDir.startsWith(`${fromDir}/`) || fromDir.startsWith(`${toDir}/`)) return undefined;
  return { from: fromDir, to: toDir };
}

/**
 * The whole-folder renames among `moves`: every synced path under `from` is moved to the same path
 * under `to`, and no other operation touches a path under `from`. Outer folders only, in the order found.
 */
export function folderRenames(moves: readonly MoveOp[], syncedPaths: Iterable<string>): FolderRename[] {
  const groups = new Map<string, FolderRename>();
  for (const move of moves) {
    const pair = folderPair(move.from, move.to);
    if (pair === undefined) continue;
    const key = `${pair.from}\n${pair.to}`;
    const group = groups.get(key) ?? { ...pair, moves: [] };
    group.moves.push(move);
    groups.set(key, group);
  }
  if (groups.size === 0) return [];
  const synced = [...syncedPaths];
  const renames: FolderRename[] = [];
  for (const group of groups.values()) {
    const under = synced.filter((path) => path.startsWith(`${group.from}/`));
    const moved = new Map(group.moves.map((move) => [move.from, move.to]));
    const whole = under.length === group.moves.length && under.every((path) => moved.get(path) === `${group.to}${path.slice(group.from.length)}`);
    if (whole) renames.push(group);
  }
  return renames;
}

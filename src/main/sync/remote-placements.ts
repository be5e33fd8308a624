/**
 * The remote snapshot as local paths (DESIGN.md §3): each asset appears once in every folder of the
 * root's tree it is filed in (or at the root's top when it is in no folder and the root maps to `/`),
 * under a safe name, disambiguated the way the disk compares names (a case-insensitive disk cannot hold
 * `logo.png` beside `Logo.png`, so one of them becomes `Logo (2).png` there). Ignored names are left out, because the scanner would never see
 * them and they would download forever. Pure: the planner's `remote` input comes from here.
 */
import type { RemoteAssetRow, RemoteFolderRow } from '../db/remote-repo.js';
import { disambiguate, localNameOf, type NameKey } from '../local/local-names.js';
import type { RemoteEntry } from './sync-types.js';

export interface PlacementScope {
  /** The root's own option; null when the root maps to the top level (`/`). */
  rootOption: string | null;
  folders: readonly RemoteFolderRow[];
  /** The root's ignore rules. */
  ignores(relPath: string, isDirectory: boolean): boolean;
  /** How the root's disk tells names apart (default: exactly, as relPaths are NFC already). */
  nameKey?: NameKey;
  /**
   * Directories on this disk that hold files (the local snapshot's), options or not. A file of the
   * service's is numbered apart from one as from a folder of the service's: a folder whose files have
   * not gone up yet (or never will: conflict copies) would otherwise stand where the file downloads,
   * and the file would wait on it for good. Once the folder is an option the
   * service's file keeps the same number; once it is gone the file takes its own name back.
   */
  localDirs?: ReadonlySet<string>;
}

const joinRel = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/** relPath → remote entry. */
export function remotePlacements(assets: readonly RemoteAssetRow[], scope: PlacementScope): Map<string, RemoteEntry> {
  const dirOf = new Map<string, string>(scope.folders.map((folder) => [folder.optionId, folder.relDir]));
  if (scope.rootOption !== null) dirOf.set(scope.rootOption, '');
  const subdirs = new Map<string, Set<string>>();
  for (const relDir of [...scope.folders.map((folder) => folder.relDir), ...(scope.localDirs ?? [])]) {
    const slash = relDir.lastIndexOf('/');
    const parent = slash < 0 ? '' : relDir.slice(0, slash);
    subdirs.set(parent, (subdirs.get(parent) ?? new Set<string>()).add(relDir.slice(slash + 1)));
  }

  const byDir = new Map<string, RemoteAssetRow[]>();
  for (const asset of assets) {
    const dirs = new Set<string>();
    for (const option of asset.folders) {
      const dir = dirOf.get(option);
      if (dir !== undefined) dirs.add(dir);
    }
    if (asset.folders.length === 0 && scope.rootOption === null) dirs.add('');
    for (const dir of dirs) byDir.set(dir, [...(byDir.get(dir) ?? []), asset]);
  }

  const entries = new Map<string, RemoteEntry>();
  for (const [dir, group] of byDir) {
    const names = disambiguate(
      group.map((asset) => ({ key: asset.assetId, name: localNameOf(asset.filename) })),
      subdirs.get(dir),
      scope.nameKey,
    );
    for (const asset of group) {
      const relPath = joinRel(dir, names.get(asset.assetId) ?? localNameOf(asset.filename));
      if (scope.ignores(relPath, false)) continue;
      entries.set(relPath, { relPath, assetId: asset.assetId, filename: asset.filename, fileId: asset.fileId, md5: asset.md5, size: asset.size, dateModified: asset.dateModified, dateAdded: asset.dateAdded });
    }
  }
  return entries;
}

/** The directories that hold `relPaths` (each one's folder and all above it, the root's top left out). */
export function directoriesOf(relPaths: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const relPath of relPaths) {
    for (let slash = relPath.lastIndexOf('/'); slash > 0; slash = relPath.lastIndexOf('/', slash - 1)) {
      const dir = relPath.slice(0, slash);
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return dirs;
}

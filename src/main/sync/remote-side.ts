/**
 * The service's side of one root's pass: brings the remote snapshot up to date as far as the feed's
 * schedule says (full listing, poll, or refresh of what we changed ourselves), makes folder changes on
 * disk, and answers the planner's remote view. When the service cannot be reached the last complete
 * snapshot still serves (it can only be behind, never ahead), and the failure is kept for `--once`.
 * Before the first full listing of this process there is no view: the planner then runs the upload
 * direction only, and nothing on disk is ever deleted for want of a listing.
 */
import type { RemoteRepo } from '../db/remote-repo.js';
import type { IgnoreRules } from '../local/index.js';
import type { FolderChange } from '../remote/remote-tree.js';
import type { RemoteFeed } from '../remote/remote-feed.js';
import type { NameKey } from '../local/local-names.js';
import { remotePlacements, type PlacementScope } from './remote-placements.js';
import type { RemoteView } from './sync-types.js';
import type { UploadRoot } from './upload-executor.js';

export interface RemoteSideDeps {
  repo: RemoteRepo;
  /** Makes folder changes on disk; answers the directories it renamed (to be rescanned). */
  applyFolders(root: UploadRoot, changes: readonly FolderChange[]): Promise<string[]>;
  /** How a directory is spelled on the root's disk where it folds case (twin folders take that name). */
  spelledOnDisk?(root: UploadRoot, relDir: string): Promise<string | undefined>;
}

export interface RemoteSideResult {
  view: RemoteView | undefined;
  /** With no view: the paths the persisted snapshot places assets at (PlanInput.lastKnownRemote). */
  lastKnown?: ReadonlySet<string>;
  /** Directories renamed on disk this time. */
  renamed: string[];
  /** Why the service could not be read this time, if it could not. */
  error?: unknown;
}

/** What of a placement's scope comes from this machine: its ignore rules and disk. */
type LocalScope = Omit<PlacementScope, 'rootOption' | 'folders'>;

export class RemoteSide {
  private failure: unknown;

  constructor(
    readonly feed: RemoteFeed,
    private readonly deps: RemoteSideDeps,
  ) {}

  /** The last update's failure, or undefined when the service answered. */
  get lastError(): unknown {
    return this.failure;
  }

  /**
   * `nameKey`: how the root's disk tells names apart (local-names.ts), so remote names never clash on
   * it; `localDirs`: the directories on disk that hold files (PlacementScope.localDirs).
   */
  async prepare(root: UploadRoot, rules: IgnoreRules, nameKey?: NameKey, localDirs?: ReadonlySet<string>): Promise<RemoteSideResult> {
    const ignores = (relPath: string, isDirectory: boolean): boolean => rules.ignores(relPath, isDirectory);
    let renamed: string[] = [];
    try {
      const { deps } = this;
      const update = await this.feed.update(ignores, nameKey, deps.spelledOnDisk === undefined ? undefined : async (relDir) => deps.spelledOnDisk?.(root, relDir));
      if (update.folderChanges.length > 0) renamed = await this.deps.applyFolders(root, update.folderChanges);
      this.failure = undefined;
    } catch (error) {
      this.failure = error;
    }
    const scope = { ignores, ...(nameKey === undefined ? {} : { nameKey }), ...(localDirs === undefined ? {} : { localDirs }) };
    const view = this.view(root, scope);
    return { view, renamed, ...(view === undefined ? { lastKnown: this.lastKnown(root, scope) } : {}), ...(this.failure === undefined ? {} : { error: this.failure }) };
  }

  private lastKnown(root: UploadRoot, scope: LocalScope): ReadonlySet<string> {
    const { repo } = this.deps;
    const state = repo.state(root.id);
    if (state.rootOption === null) return new Set();
    return new Set(remotePlacements(repo.assets(root.id), { ...scope, rootOption: state.rootOption === '' ? null : state.rootOption, folders: repo.folders(root.id) }).keys());
  }

  private view(root: UploadRoot, scope: LocalScope): RemoteView | undefined {
    if (!this.feed.complete) return undefined;
    const { repo } = this.deps;
    const state = repo.state(root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    return {
      entries: remotePlacements(repo.assets(root.id), { ...scope, rootOption, folders: repo.folders(root.id) }),
      unknownAssets: new Set(this.feed.unknownAssets()),
    };
  }
}

/**
 * Each asset's current name on the service, as the view knows it: not for the assets it does not know
 * right now (our own change not read back), whose name may be one this client just changed.
 */
export function serviceNames(view: RemoteView | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of view?.entries.values() ?? []) if (view?.unknownAssets?.has(entry.assetId) !== true) names.set(entry.assetId, entry.filename);
  return names;
}

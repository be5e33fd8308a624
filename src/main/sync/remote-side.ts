/**
 * The service's side of one root's pass: brings the remote snapshot up to date as far as the feed's
 * schedule says (full listing, poll, or refresh of what we changed ourselves), makes folder changes on
 * disk, and answers the planner's remote view. When the service cannot be reached the last complete
 * snapshot still serves (it can only be behind, never ahead), and the failure is kept for `--once`.
 * Before the first full listing of this process there is no view: the planner then runs the upload
 * direction only, and nothing on disk is ever deleted for want of a listing.
 */
import type { RemoteRepo } from '../db/remote-repo.js';
import type { JournalEntry } from '../db/upload-journal.js';
import type { IgnoreRules } from '../local/index.js';
import type { FolderChange } from '../remote/remote-tree.js';
import type { RemoteFeed } from '../remote/remote-feed.js';
import type { NameKey } from '../local/local-names.js';
import { remotePlacements, type PlacementScope } from './remote-placements.js';
import { identityOf, type LocalEntry, type RemoteView, type SyncedEntry } from './sync-types.js';
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
 * The view, with the assets of this client's own new-file uploads whose outcome is not settled yet
 * (a journal entry naming the asset, the file still on disk, no synced row for the asset) taken as
 * unknown: the resume settles them, recording the file at its path. Seen as remote files of their
 * own, such an asset came down beside the file it was made from: `C` in `A` listed as `A/C (2)` (a
 * folder `A/C` on the service), its upload landed unheard and the file could not be read to tell
 * (EACCES). The resume then recorded `A/C` too, two synced rows of one asset, and a folder rename
 * moved each, filing the asset in two folders (simulation seed 100391).
 */
export function withOwnUploads(view: RemoteView, uploads: readonly Pick<JournalEntry, 'kind' | 'relPath' | 'assetId'>[], local: ReadonlyMap<string, unknown>, synced: ReadonlyMap<string, SyncedEntry>, movedFrom: ReadonlySet<string> = new Set()): RemoteView {
  const recorded = new Set([...synced.values()].map((entry) => entry.assetId));
  const own = uploads.flatMap((entry) => (entry.kind === 'NEW' && entry.assetId !== null && (local.has(entry.relPath) || movedFrom.has(entry.relPath)) && !recorded.has(entry.assetId) ? [entry.assetId] : []));
  if (own.length === 0) return view;
  return { ...view, unknownAssets: new Set([...(view.unknownAssets ?? []), ...own]) };
}

/**
 * The files of this client's own new-file uploads not settled yet that moved on disk: the journal's
 * path gone, the file (device, inode) at a path nothing synced. Keyed by the file's path now, to the
 * journal's path. Such a file waits (busy) until its upload is settled where it was sent (the resume,
 * or `dropAbandoned` at the end of the pass): recorded there when it landed, the next plan sees a
 * synced file moved, or started anew when it did not. Planned meanwhile, it went up as a second new
 * asset while the first one, landed unheard (the file unreadable to tell), came down at the old path:
 * two live assets of one file once the user's folder rename `A` → `A2` carried both (seed 142763).
 */
export function movedOwnUploads(uploads: readonly Pick<JournalEntry, 'kind' | 'relPath' | 'local'>[], local: ReadonlyMap<string, LocalEntry>, unstable: ReadonlySet<string>, synced: ReadonlyMap<string, SyncedEntry>): Map<string, string> {
  const moved = new Map<string, string>();
  /** The journal's path of each such upload, by its file's identity. */
  const gone = new Map(uploads.flatMap((entry) => (entry.kind === 'NEW' && !local.has(entry.relPath) && !unstable.has(entry.relPath) ? [[identityOf(entry.local), entry.relPath] as const] : [])));
  if (gone.size === 0) return moved;
  for (const file of local.values()) {
    const from = synced.has(file.relPath) ? undefined : gone.get(identityOf(file));
    if (from !== undefined) moved.set(file.relPath, from);
  }
  return moved;
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

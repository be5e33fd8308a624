/**
 * The remote change feed of one root (DESIGN.md §3 "remote" snapshot): a full listing (the folder tree,
 * then a scroll over the root's folders) when the engine starts and periodically after, which is how
 * removals, moves out of the root and moves to BINNED are certainly seen; between listings a cheap
 * incremental poll of what changed since a watermark (with an overlap, and confirmed by the file's
 * checksum, because a server may set dates into the past when a file is replaced); and a refresh of
 * the assets the engine itself just changed, so its own changes never look like remote news. An upload's
 * completion already answers the asset as the service holds it: that answer is folded in directly
 * (`learned`), with the folders the upload created, instead of being asked for again.
 *
 * Against a service with a change feed (remote/change-listener.ts) the polls wait for it: while it is
 * followed, a poll or a walk of the folder tree happens only when it says that kind of thing changed,
 * and a permanent deletion (or a cursor the service no longer knows) brings the full listing forward.
 * When the service fails, the next attempt backs off (capped, with jitter) instead of retrying at
 * every pass.
 *
 * Must never: list the whole account when the root maps to a sub-folder; report the snapshot as
 * complete before a full listing succeeded in this process (a stale snapshot would read our own fresh
 * uploads as deletions); decide anything about local files (that is the planner's job).
 */
import type { Asset } from '../../shared/api/resources.js';
import type { ChangeKind } from '../../shared/api/change-feed.js';
import type { AssetApi, FolderNode } from '../api/index.js';
import { walkFieldOptions } from '../api/index.js';
import type { RemoteAssetRow, RemoteRepo } from '../db/remote-repo.js';
import type { FolderMapper, FolderRoot } from './folder-mapper.js';
import { AssetChanges, PAGE_SIZE, later, toRow } from './asset-changes.js';
import { MAX_IN_VALUES, SYNCED_STATES, allOf, chunks, folderCriterion, stateCriterion } from './remote-criteria.js';
import { diffFolderTrees, remoteTreeRows, type FolderChange, type SpelledOnDisk } from './remote-tree.js';
import { addMappedFolders, renameStoredFolder, storeTree } from './stored-folder-tree.js';
import type { NameKey } from '../local/local-names.js';

export interface RemoteFeedOptions {
  /** Between incremental polls (default 10 s). */
  pollIntervalMs?: number;
  /** Between full listings (default 10 min). */
  fullIntervalMs?: number;
  /** How far before the watermark a poll starts (default 15 s). */
  overlapMs?: number;
  /** After a failure the next attempt waits this long, doubling with each failure in a row up to `maxBackoffMs` (default 1 s). */
  backoffMs?: number;
  /** Default 5 min. */
  maxBackoffMs?: number;
}

export interface RemoteFeedDeps {
  api: AssetApi;
  folders: FolderMapper;
  repo: RemoteRepo;
  now(): number;
  /** [0, 1), for backoff jitter (default Math.random). */
  random?: () => number;
  options?: RemoteFeedOptions;
}

export type Ignores = (relPath: string, isDirectory: boolean) => boolean;

export interface FeedUpdate {
  /** What this update did. */
  did: 'full' | 'poll' | 'refresh' | 'nothing';
  /** Folder changes found by a full listing, to apply on disk. */
  folderChanges: FolderChange[];
}

/** Between incremental polls: a change made in the service reaches the disk ~5 s later on average. */
export const DEFAULT_POLL_MS = 10_000;
const DEFAULT_FULL_MS = 10 * 60_000;
const DEFAULT_OVERLAP_MS = 15_000;

export class RemoteFeed {
  private completed = false;
  private nextPollAt = 0;
  private nextFullAt = 0;
  /** Assets our own executors changed: refreshed before the next plan; unknown until then. */
  private readonly dirty = new Set<string>();
  /** Assets filed in a folder of the root the stored tree does not know yet: unknown until the tree is walked. */
  private readonly strangers = new Set<string>();
  private readonly changes: AssetChanges;
  private readonly options: Required<RemoteFeedOptions>;
  /** The service's change feed is followed: polls wait for it to say something changed. */
  private followed = false;
  private pollWanted = false;
  private treeWanted = false;
  private failures = 0;
  private retryAt = 0;
  /** Moves on whenever the folder tree may have changed unheard of: a FOLDER change, an unknown kind, the feed lost, a full listing asked for. */
  private folderEpoch = 0;
  /** The last walk's options, taken while the feed was followed, and the epoch it began in. */
  private lastWalk: { nodes: readonly FolderNode[]; rootOption: string | null; epoch: number } | undefined;

  constructor(
    readonly root: FolderRoot,
    private readonly deps: RemoteFeedDeps,
  ) {
    this.options = {
      pollIntervalMs: deps.options?.pollIntervalMs ?? DEFAULT_POLL_MS,
      fullIntervalMs: deps.options?.fullIntervalMs ?? DEFAULT_FULL_MS,
      overlapMs: deps.options?.overlapMs ?? DEFAULT_OVERLAP_MS,
      backoffMs: deps.options?.backoffMs ?? 1000,
      maxBackoffMs: deps.options?.maxBackoffMs ?? 5 * 60_000,
    };
    this.changes = new AssetChanges(root, deps, { dirty: this.dirty, strangers: this.strangers });
  }

  /** Whether a full listing succeeded in this process: only then may the planner act on remote absence. */
  get complete(): boolean {
    return this.completed;
  }

  /** Asset ids whose remote state is not known right now (changed by us, not yet refreshed). */
  unknownAssets(): ReadonlySet<string> {
    return this.strangers.size === 0 ? this.dirty : new Set([...this.dirty, ...this.strangers]);
  }

  /** Our executors changed these assets: look at them again before the next plan. */
  touched(assetIds: Iterable<string>): void {
    for (const id of assetIds) this.dirty.add(id);
  }

  /**
   * Our uploads' answers: each asset as the service held it right after we changed it. Folded in at
   * once (a refresh would only ask again); before the first full listing they wait for it like any
   * touched asset. Folders the uploads created join the stored tree from the folder mapper, which made
   * them inside this root, so they need no walk of the tree.
   */
  async learned(assets: readonly Asset[]): Promise<void> {
    if (assets.length === 0) return;
    if (!this.completed) {
      this.touched(assets.map((asset) => asset.id));
      return;
    }
    const fieldId = await this.deps.folders.fieldId();
    const state = this.deps.repo.state(this.root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    addMappedFolders(this.deps, this.root, assets.flatMap((asset) => asset.metadata.values[fieldId] ?? []), rootOption);
    await this.changes.absorb(assets, fieldId, rootOption, this.deps.repo.folders(this.root.id));
  }

  /**
   * Our own folder rename, one option PATCH (root-sync.ts): the stored tree follows it as a walk would
   * find it. The option keeps its id and its assets their placements, so no poll tells of it, and a
   * tree still naming the old folder made the next plan move the files back there. A parent the
   * stored tree does not hold yet (made by the rename) is found by a walk on the next update.
   */
  folderRenamed(from: string, to: string): void {
    if (!renameStoredFolder(this.deps, this.root, from, to)) {
      this.folderEpoch++;
      this.treeWanted = true;
    }
  }

  /** The next full listing happens on the next update, whatever the schedule (or a backoff) says. */
  requestFull(): void {
    // Whole means the tree too: `--once`, and a service whose history was lost (it may have been restored).
    this.folderEpoch++;
    this.nextFullAt = 0;
    this.retryAt = 0;
  }

  /**
   * Whether the service's change feed is followed right now. While it is, polls happen only when it
   * says something changed (`changed`); when it drops, the poll schedule resumes (a poll overdue
   * meanwhile runs at once), so nothing waits for the reconnection.
   */
  follow(followed: boolean): void {
    if (!followed) this.folderEpoch++;
    this.followed = followed;
  }

  /** The change feed says these kinds changed: ask for exactly that on the next update. */
  changed(kinds: readonly string[]): void {
    for (const kind of kinds) {
      switch (kind as ChangeKind) {
        case 'ASSET':
        case 'ASSET_FILE':
          this.pollWanted = true;
          break;
        case 'FOLDER':
          // A renamed or moved folder is only seen by walking the tree; a new one comes with its assets.
          this.folderEpoch++;
          this.treeWanted = true;
          this.pollWanted = true;
          break;
        case 'ASSET_DELETED':
        default:
          // Only a full listing sees an asset that is gone for good (and a kind we do not know may be anything).
          if (kind !== 'ASSET_DELETED') this.folderEpoch++;
          this.nextFullAt = 0;
      }
    }
  }

  /** When the feed next wants to run (epoch ms). */
  nextDueAt(): number {
    const poll = this.followed ? (this.pollWanted || this.treeWanted ? 0 : Infinity) : this.nextPollAt;
    return Math.max(this.retryAt, Math.min(poll, this.nextFullAt));
  }

  /** Does what is due: a full listing, else a poll, and always a refresh of what we touched. */
  /** `nameKey`: how the root's disk tells names apart, so folder names never clash on it (local-names.ts). */
  async update(ignores: Ignores, nameKey?: NameKey, spelled?: SpelledOnDisk): Promise<FeedUpdate> {
    const now = this.deps.now();
    if (now < this.retryAt) return { did: 'nothing', folderChanges: [] };
    const wanted = { poll: this.pollWanted, tree: this.treeWanted };
    this.pollWanted = false;
    this.treeWanted = false;
    try {
      const result = await this.due(ignores, now, wanted, nameKey, spelled);
      this.failures = 0;
      return result;
    } catch (error) {
      // Asked for again after the backoff; what the change feed asked for stays asked for.
      this.pollWanted ||= wanted.poll;
      this.treeWanted ||= wanted.tree;
      const delay = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** this.failures);
      this.failures++;
      this.retryAt = this.deps.now() + delay * (0.5 + (this.deps.random ?? Math.random)() / 2);
      throw error;
    }
  }

  private async due(ignores: Ignores, now: number, wanted: { poll: boolean; tree: boolean }, nameKey: NameKey | undefined, spelled: SpelledOnDisk | undefined): Promise<FeedUpdate> {
    let result: FeedUpdate = { did: 'nothing', folderChanges: [] };
    let needsTree = false;
    if (!this.completed || now >= this.nextFullAt) {
      result = { did: 'full', folderChanges: await this.fullListing(ignores, nameKey, spelled) };
    } else if (wanted.poll || (!this.followed && now >= this.nextPollAt)) {
      needsTree = (await this.poll()) || wanted.tree;
      result = { did: 'poll', folderChanges: [] };
    } else if (wanted.tree) {
      needsTree = true;
    }
    if (this.dirty.size > 0) {
      needsTree = (await this.changes.refresh([...this.dirty])) || needsTree;
      if (result.did === 'nothing') result = { did: 'refresh', folderChanges: [] };
    }
    // An asset filed in a folder the stored tree does not know: walk the tree again now, or its
    // placement there would read as a removal.
    if (needsTree || this.strangers.size > 0) result = { ...result, folderChanges: [...result.folderChanges, ...(await this.walkTree(ignores, nameKey, spelled))] };
    return result;
  }

  /** Walks the root's folder tree again and stores it; answers what changed. */
  private async walkTree(ignores: Ignores, nameKey: NameKey | undefined, spelled: SpelledOnDisk | undefined): Promise<FolderChange[]> {
    const { folders, repo } = this.deps;
    const fieldId = await folders.fieldId();
    const rootOption = await folders.optionFor(this.root, '');
    const tree = await remoteTreeRows(await this.folderNodes(fieldId, rootOption, true), rootOption, ignores, nameKey, spelled);
    const changes = diffFolderTrees(repo.folders(this.root.id), tree);
    storeTree(this.deps, this.root, tree, changes);
    this.strangers.clear();
    return changes;
  }

  /** The tree, then every asset in it; replaces the snapshot. Returns what happened to folders. */
  private async fullListing(ignores: Ignores, nameKey: NameKey | undefined, spelled: SpelledOnDisk | undefined): Promise<FolderChange[]> {
    const { api, folders, repo } = this.deps;
    const startedAt = this.deps.now();
    const fieldId = await folders.fieldId();
    const rootOption = await folders.optionFor(this.root, '');
    const tree = await remoteTreeRows(await this.folderNodes(fieldId, rootOption, false), rootOption, ignores, nameKey, spelled);
    const scopes = rootOption === null ? [undefined] : chunks([rootOption, ...tree.map((row) => row.optionId)], MAX_IN_VALUES).map((ids) => folderCriterion(fieldId, ids));
    const rows = new Map<string, RemoteAssetRow>();
    let watermark: string | null = null;
    for (const scope of scopes) {
      const criterion = allOf(stateCriterion(SYNCED_STATES), scope);
      for await (const page of api.scrollAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], pageSize: PAGE_SIZE })) {
        for (const { result: asset } of page.results) {
          watermark = later(later(watermark, asset.dateLastModified), asset.currentAssetFile?.dateAdded);
          const row = toRow(asset, fieldId);
          if (row !== undefined) rows.set(row.assetId, row);
        }
      }
    }
    const before = repo.folders(this.root.id);
    const changes = diffFolderTrees(before, tree);
    const previous = repo.state(this.root.id);
    storeTree(this.deps, this.root, tree, changes);
    repo.replaceAssets(this.root.id, [...rows.values()]);
    repo.putState(this.root.id, {
      watermark: later(previous.watermark, watermark) ?? new Date(startedAt - 5 * 60_000).toISOString(),
      lastFull: new Date(startedAt).toISOString(),
      rootOption: rootOption ?? '',
    });
    // Everything we had touched is in the listing now, and every folder in the tree.
    this.dirty.clear();
    this.strangers.clear();
    this.completed = true;
    this.nextFullAt = startedAt + this.options.fullIntervalMs;
    this.nextPollAt = startedAt + this.options.pollIntervalMs;
    return changes;
  }

  /**
   * The options below the root, walked again unless `fresh` is false and the change feed was followed
   * without a break since the last walk and told of no folder change: the tree that walk found is then
   * still the service's, and a periodic full listing only lists the assets (a walk asks once per folder
   * with sub-folders). Against a service with no feed, every full listing walks.
   */
  private async folderNodes(fieldId: string, rootOption: string | null, fresh: boolean): Promise<readonly FolderNode[]> {
    const last = this.lastWalk;
    if (!fresh && this.followed && last !== undefined && last.epoch === this.folderEpoch && last.rootOption === rootOption) return last.nodes;
    const { folderEpoch: epoch, followed } = this;
    const nodes = await walkFieldOptions(this.deps.api, fieldId, { rootId: rootOption });
    this.lastWalk = followed ? { nodes, rootOption, epoch } : undefined;
    return nodes;
  }

  /** What changed since the watermark (asset-changes.ts); true when a folder appeared that needs the tree walked again. */
  private poll(): Promise<boolean> {
    const startedAt = this.deps.now();
    this.nextPollAt = startedAt + this.options.pollIntervalMs;
    return this.changes.poll(startedAt, this.options.overlapMs);
  }
}


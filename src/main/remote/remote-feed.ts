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
import { isApiError, walkFieldOptions } from '../api/index.js';
import type { RemoteAssetRow, RemoteFolderRow, RemoteRepo } from '../db/remote-repo.js';
import { relDirOf, type FolderMapper, type FolderRoot } from './folder-mapper.js';
import { MAX_IN_VALUES, POLLED_STATES, SYNCED_STATES, allOf, assetIdsCriterion, changedSinceCriterion, chunks, folderCriterion, stateCriterion } from './remote-criteria.js';
import { diffFolderTrees, remoteTreeRows, type FolderChange, type SpelledOnDisk } from './remote-tree.js';
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
/** A poll that finds more changes than this does a full listing instead. */
const POLL_LIMIT = 5_000;
const PAGE_SIZE = 1000;

const later = (a: string | null, b: string | null | undefined): string | null => {
  if (b === undefined || b === null || b === '' || Number.isNaN(Date.parse(b))) return a;
  return a === null || Date.parse(b) > Date.parse(a) ? new Date(Date.parse(b)).toISOString() : a;
};

export class RemoteFeed {
  private completed = false;
  private nextPollAt = 0;
  private nextFullAt = 0;
  /** Assets our own executors changed: refreshed before the next plan; unknown until then. */
  private readonly dirty = new Set<string>();
  /** Assets filed in a folder of the root the stored tree does not know yet: unknown until the tree is walked. */
  private readonly strangers = new Set<string>();
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
    this.addMappedFolders(assets.flatMap((asset) => asset.metadata.values[fieldId] ?? []), rootOption);
    await this.absorb(assets, fieldId, rootOption, this.deps.repo.folders(this.root.id));
  }

  /**
   * Our own folder rename, one option PATCH (root-sync.ts): the stored tree follows it as a walk would
   * find it. The option keeps its id and its assets their placements, so no poll tells of it, and a
   * tree still naming the old folder made the next plan move the files back there. A parent the
   * stored tree does not hold yet (made by the rename) is found by a walk on the next update.
   */
  folderRenamed(from: string, to: string): void {
    const { repo } = this.deps;
    const rows = repo.folders(this.root.id);
    const parentDir = relDirOf(to);
    const parent = parentDir === '' ? null : rows.find((row) => row.relDir === parentDir)?.optionId;
    if (parent === undefined) {
      this.folderEpoch++;
      this.treeWanted = true;
    }
    const value = to.slice(parentDir === '' ? 0 : parentDir.length + 1);
    repo.replaceFolders(
      this.root.id,
      rows.map((row) => {
        if (row.relDir === from) return { ...row, value, relDir: to, ...(parent === undefined ? {} : { parentId: parent }) };
        return row.relDir.startsWith(`${from}/`) ? { ...row, relDir: `${to}${row.relDir.slice(from.length)}` } : row;
      }),
    );
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
      needsTree = (await this.refresh([...this.dirty])) || needsTree;
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
    this.storeTree(tree, changes);
    this.strangers.clear();
    return changes;
  }

  /**
   * Stores a walked tree and, in the same transaction, forgets the folder cache's directory for every
   * option the tree no longer holds where the cache has it (removed, or moved elsewhere), and every
   * directory of the tree the cache maps to an option the tree does not hold there. The stored
   * tree is what the next walk is compared with, so a change stored here is never found again: when
   * the cache learned of it only as the change was applied on disk, a crash or a failure before that
   * (applyFolderChanges goes on past errors) left the directory mapped to a deleted option for good,
   * and every upload into it asked the service to create a folder under an option that no longer
   * exists, on every pass (simulation seed 103748).
   */
  private storeTree(tree: readonly RemoteFolderRow[], changes: readonly FolderChange[]): void {
    const { folders, repo } = this.deps;
    repo.inTransaction(() => {
      repo.replaceFolders(this.root.id, tree);
      for (const change of changes) {
        if (change.kind === 'CREATED') continue;
        const cached = folders.dirOf(this.root, change.optionId);
        if (cached !== undefined && !(change.kind === 'MOVED' && cached === change.to)) folders.forget(this.root, cached);
      }
      // The tree names the options a directory is now; a cache that names it another is behind, though
      // no change above says so. Client 1 cached `A/C` for an upload before any walk of its held it;
      // client 0 renamed `A/C` to `D` file by file and deleted the emptied option, and a new `A/C` was
      // made, all before client 1's next walk, which read only a new folder. Kept, every move out
      // of `A/C` asked the service to take the asset out of the deleted option as well, refused
      // (INVALID_FIELD_VALUE) on every pass: no convergence (simulation seed 141957).
      const held = new Map<string, Set<string>>();
      for (const row of tree) held.set(row.relDir, (held.get(row.relDir) ?? new Set<string>()).add(row.optionId));
      for (const [relDir, options] of held) {
        const cached = folders.knownOption(this.root, relDir);
        if (typeof cached === 'string' && !options.has(cached)) folders.forget(this.root, relDir);
      }
    });
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
    this.storeTree(tree, changes);
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

  /** What changed since the watermark; true when a folder appeared that needs the tree walked again. */
  private async poll(): Promise<boolean> {
    const { api, folders, repo } = this.deps;
    const startedAt = this.deps.now();
    this.nextPollAt = startedAt + this.options.pollIntervalMs;
    const state = repo.state(this.root.id);
    const fieldId = await folders.fieldId();
    const tree = repo.folders(this.root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    const since = new Date((state.watermark === null ? startedAt : Date.parse(state.watermark)) - this.options.overlapMs).toISOString();
    const optionIds = rootOption === null ? [] : [rootOption, ...tree.map((row) => row.optionId)];
    // A very large tree would take many searches a poll: the periodic full listing covers it.
    if (optionIds.length > MAX_IN_VALUES) return false;
    const criterion = allOf(stateCriterion(POLLED_STATES), rootOption === null ? undefined : folderCriterion(fieldId, optionIds), changedSinceCriterion(since));
    const found: Asset[] = [];
    for (let from = 0; ; ) {
      const page = await api.searchAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'ASC' }], from, pageSize: Math.min(PAGE_SIZE, 10_000 - from) });
      if (page.totalResults > POLL_LIMIT) return true;
      found.push(...page.results.map(({ result }) => result));
      from += page.results.length;
      if (page.results.length === 0 || from >= page.totalResults || from >= 10_000) break;
    }
    return this.absorb(found, fieldId, rootOption, tree);
  }

  /** Looks at these assets again (after our own changes); the ones not found are gone. True when the tree needs a walk. */
  private async refresh(assetIds: readonly string[]): Promise<boolean> {
    const { api, folders, repo } = this.deps;
    const fieldId = await folders.fieldId();
    const state = repo.state(this.root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    let needsTree = false;
    for (const ids of chunks(assetIds, MAX_IN_VALUES)) {
      const found: Asset[] = [];
      const page = await api.searchAssets({ criterion: allOf(stateCriterion(POLLED_STATES), assetIdsCriterion(ids)), sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], from: 0, pageSize: ids.length });
      found.push(...page.results.map(({ result }) => result));
      const seen = new Set(found.map((asset) => asset.id));
      for (const id of ids) if (!seen.has(id)) repo.deleteAsset(this.root.id, id);
      needsTree = (await this.absorb(found, fieldId, rootOption, repo.folders(this.root.id))) || needsTree;
      for (const id of ids) this.dirty.delete(id);
    }
    return needsTree;
  }

  /**
   * Adds to the stored tree the folders among `optionIds` that the folder mapper made for directories
   * of this root (with their parents), unless the tree has another folder at that place: then only a
   * walk can tell how the service's names map to disk.
   */
  private addMappedFolders(optionIds: readonly string[], rootOption: string | null): void {
    const { folders, repo } = this.deps;
    const tree = repo.folders(this.root.id);
    const known = new Set(tree.map((row) => row.optionId));
    const taken = new Set(tree.map((row) => row.relDir));
    const added: RemoteFolderRow[] = [];
    const place = (optionId: string): boolean => {
      if (optionId === rootOption || known.has(optionId)) return true;
      const relDir = folders.dirOf(this.root, optionId);
      if (relDir === undefined || relDir === '' || taken.has(relDir)) return false;
      const parentDir = relDirOf(relDir);
      const parentId = parentDir === '' ? null : folders.knownOption(this.root, parentDir);
      if (parentId === undefined || (parentId !== null && !place(parentId))) return false;
      added.push({ optionId, parentId, value: relDir.slice(relDir.lastIndexOf('/') + 1), relDir });
      known.add(optionId);
      taken.add(relDir);
      return true;
    };
    for (const optionId of new Set(optionIds)) place(optionId);
    if (added.length > 0) repo.addFolders(this.root.id, added);
  }

  /**
   * Folds assets into the snapshot: in scope → stored, otherwise (binned, no file, filed elsewhere) →
   * removed. True when one is filed in a folder of the root that the stored tree does not know yet.
   * Decides first (that may ask the service about folders), then writes everything in one transaction.
   */
  private async absorb(assets: readonly Asset[], fieldId: string, rootOption: string | null, tree: readonly RemoteFolderRow[]): Promise<boolean> {
    const { repo } = this.deps;
    // Nothing new: no write either (the watermark only moves with what was found), so a quiet poll
    // leaves the state database as it was and a resting root stays at rest (root-sync.ts).
    if (assets.length === 0) return false;
    const known = new Set(tree.map((row) => row.optionId));
    if (rootOption !== null) known.add(rootOption);
    let state = repo.state(this.root.id);
    let unknownFolder = false;
    const decided: { assetId: string; row: RemoteAssetRow | undefined }[] = [];
    for (const asset of assets) {
      state = { ...state, watermark: later(later(state.watermark, asset.dateLastModified), asset.currentAssetFile?.dateAdded) };
      const row = asset.lifecycleStatus.state === 'BINNED' ? undefined : toRow(asset, fieldId);
      const options = row?.folders ?? [];
      const strangers = options.filter((option) => !known.has(option));
      const newFolderOfRoot = row !== undefined && strangers.length > 0 && (rootOption === null || (await this.insideRoot(strangers, rootOption)));
      if (newFolderOfRoot) {
        unknownFolder = true;
        this.strangers.add(asset.id);
      }
      const inScope = row !== undefined && (rootOption === null || newFolderOfRoot || options.some((option) => known.has(option)));
      decided.push({ assetId: asset.id, row: inScope ? row : undefined });
    }
    repo.inTransaction(() => {
      for (const { assetId, row } of decided) {
        if (row !== undefined) repo.putAsset(this.root.id, row);
        else repo.deleteAsset(this.root.id, assetId);
      }
      repo.putState(this.root.id, state);
    });
    for (const { assetId } of decided) this.dirty.delete(assetId);
    return unknownFolder;
  }

  /** Whether any of these options lies below the root's option (its parent chain says so). */
  private async insideRoot(optionIds: readonly string[], rootOption: string): Promise<boolean> {
    for (const id of optionIds) {
      try {
        for (let option = await this.deps.api.getFieldOption(id); option.parent !== null; option = option.parent) {
          if (option.parent.id === rootOption) return true;
        }
      } catch (error) {
        if (!isApiError(error, 'NOT_FOUND')) throw error;
      }
    }
    return false;
  }
}

/** The snapshot row of an asset, or undefined when it has no file to sync. */
function toRow(asset: Asset, fieldId: string): RemoteAssetRow | undefined {
  const file = asset.currentAssetFile;
  if (file === null) return undefined;
  return {
    assetId: asset.id,
    fileId: file.id,
    filename: file.filename,
    md5: file.checksum.toLowerCase(),
    size: file.size,
    dateModified: asset.dateLastModified,
    dateAdded: file.dateAdded,
    folders: asset.metadata.values[fieldId] ?? [],
  };
}


/**
 * Carries out the operations that change where an asset is filed, not its bytes (DESIGN.md §3):
 * a move is a Folders edit (remove the old placement, add the new), a rename is `PATCH filename`, a
 * binned asset is restored before its move, a local folder rename is one option change. A deletion
 * removes the placement — and moves the asset to BINNED (recoverable) only when it was the asset's
 * last folder (placement-removals.ts, which this hands deletions to). Never a re-upload, never a
 * permanent delete.
 */
import type { MetadataValueUpdate } from '../api/index.js';
import { currentMd5, isApiError, unlessNotFound } from '../api/index.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { spellsHere, unnumbered } from '../local/local-names.js';
import { PlacementRemovals, expectEach, sameDirOptions, type DeleteOp, type PlacementRemovalDeps } from './placement-removals.js';
import type { UploadRoot } from './upload-common.js';
import type { MoveAhead } from '../db/move-journal.js';
import type { Operation, SyncedEntry } from './sync-types.js';

type MoveOp = Extract<Operation, { kind: 'MOVE' }>;

export interface PlacementExecutorDeps extends PlacementRemovalDeps {
  /** Replaces the synced entry at `from` by `to` and finishes a move written ahead from `from`, in one transaction. */
  moved(rootId: string, from: string, to: SyncedEntry): void;
  /**
   * Before the first call to the service of a move that takes more than one: the move written ahead
   * (move-journal.ts) and, for a restore, the synced row at the asset's bytes (`synced`, at the move's
   * old path), in one transaction.
   */
  movingAhead(rootId: string, move: MoveAhead, synced?: SyncedEntry): void;
  /** A move written ahead that is off (nothing of it is left to send): its entry goes. */
  moveOff(rootId: string, from: string): void;
}

const baseName = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

export class PlacementExecutor {
  private readonly removals: PlacementRemovals;

  constructor(private readonly deps: PlacementExecutorDeps) {
    this.removals = new PlacementRemovals(deps);
  }

  /**
   * `filed`: the options the service files the asset in, when known (read by `restore`): the move
   * takes it out of each of them in this root, not only out of the option its old folder maps to
   * here — another client may have renamed that folder's option meanwhile (`A/C` → `A2`, carrying the
   * binned asset), and this client's `A/C` is a new, empty option. Whether an option is
   * in this root is asked past the folder cache: the rename may have taken it where this client maps
   * no directory yet (`B/E`, with a file named `B` here).
   *
   * Without `filed`, an asset filed nowhere else here is read first: when the service has it in
   * another folder of this root than the one the file left (a colleague moved it, and the listing this
   * plan read was behind), both sides moved it, and the move waits (false) for the read-back of the
   * asset, whose plan gives it the service's place as for any move on both sides. Sent, the metadata
   * edit's REMOVE would miss the folder it is in and its ADD would file it in a second.
   */
  async move(root: UploadRoot, op: MoveOp, previous: SyncedEntry, filed?: readonly string[], serviceName?: string): Promise<boolean> {
    const { api, folders } = this.deps;
    const fromDir = relDirOf(op.from);
    const toDir = relDirOf(op.to);
    let updates: MetadataValueUpdate[] = [];
    if (fromDir !== toDir) {
      const fieldId = await folders.fieldId();
      const [oldOption, newOption] = await Promise.all([folders.optionFor(root, fromDir), folders.optionFor(root, toDir)]);
      const left = oldOption === null ? [] : sameDirOptions(this.deps, root, fromDir, oldOption);
      const alone = this.deps.otherPlacements(root.id, op.assetId, op.from) === 0;
      if (filed === undefined && alone && (await this.movedThere(root, op.assetId, fieldId, [...left, ...(newOption === null ? [] : [newOption])]))) return false;
      const filedHere = await this.inRoot(root, filed ?? []);
      const oldOptions = [...new Set([...left, ...filedHere])].filter((option) => option !== newOption);
      updates = [
        ...(oldOptions.length === 0 || !alone ? [] : [{ fieldId, type: 'BY_IDS' as const, values: oldOptions, operation: 'REMOVE' as const }]),
        ...(newOption === null ? [] : [{ fieldId, type: 'BY_IDS' as const, values: [newOption], operation: 'ADD' as const }]),
      ];
    }
    const rename = await this.renames(op, serviceName);
    // Two calls: written ahead (a restore wrote its own, `filed`). A crash between them left the asset
    // in its new folder under its old name, read next as moved on both sides: the service's place won,
    // and the user's rename was undone. The next pass finishes it instead (`resumeMove`).
    if (filed === undefined && updates.length > 0 && rename) this.deps.movingAhead(root.id, { from: op.from, assetId: op.assetId, local: op.local, restore: false });
    if (updates.length > 0) expectEach(await api.editMetadata({ type: 'BY_IDS', assetIds: [op.assetId] }, updates), op.assetId);
    if (rename) await api.changeAsset(op.assetId, { filename: baseName(op.to) });
    // Content is what it was: if it changed too, the planner's UPLOAD_VERSION for the new path follows.
    this.deps.moved(root.id, op.from, { ...op.local, md5: previous.md5, assetId: op.assetId });
    return true;
  }

  /**
   * Whether the move renames the asset: its name changed here, and is not only how this disk holds the
   * service's name for it (`serviceName`, when known: numbered apart from a namesake, made safe). The
   * engine numbers files itself, and a crash between its rename and the record leaves the file at the
   * number, read next as a move of the user's: the number this disk alone needs never becomes the
   * asset's name for everyone. A user who adds such a number to a name meets the service's name
   * again. A numbered name whose service name the caller does not know (the listing is behind on the
   * asset) asks the service for it.
   */
  private async renames(op: MoveOp, serviceName: string | undefined): Promise<boolean> {
    const name = baseName(op.to);
    if (name === baseName(op.from)) return false;
    const known = serviceName ?? (unnumbered(name) === name ? undefined : (await unlessNotFound(this.deps.api.getAsset(op.assetId)))?.currentAssetFile?.filename);
    return known === undefined || !spellsHere(name, known);
  }

  /** Whether the service files the asset in a folder of this root other than `expected` (moved there meanwhile). */
  private async movedThere(root: UploadRoot, assetId: string, fieldId: string, expected: readonly string[]): Promise<boolean> {
    const asset = await unlessNotFound(this.deps.api.getAsset(assetId));
    const elsewhere = (asset?.metadata.values[fieldId] ?? []).filter((option) => !expected.includes(option));
    return (await this.inRoot(root, elsewhere)).length > 0;
  }

  /**
   * Before a move whose asset left the listing (`restore`): a binned asset goes back to the state it
   * was binned from, its files and history kept, and the move follows (`MOVE`). The user kept the file,
   * so the bytes they have are the asset's: when its current bytes are not the ones this client last
   * synced (a colleague's edit, then the bin), the synced row takes those bytes before the
   * transition, and the move's caller sends the file as a new version once the move is done (`synced`,
   * the row as it now stands, differs from the file). The colleague's edit stays in the history, never
   * current. Row first: from the transition on, the asset is live holding the colleague's bytes, and a
   * restart that found the row at ours read "changed there, not here" and downloaded them over the
   * user's file; at the colleague's bytes, every plan from any crash point reads the file as changed
   * here and uploads it. A version goes to a live asset, as on any service. Uploading the file as a new
   * asset instead made a second asset of one file when two clients moved it (a duplicate).
   * `GONE` when it cannot come back — permanently deleted, a binned asset with no file, or a service
   * that refuses the transition (`targetState` is ours, API.md; the hosted one may answer 4xx) — and the
   * caller forgets it, so the file uploads as a new asset as before. A live asset filed in a folder of
   * this root is one the listing is behind on (another client brought it back, or moved it): `WAIT`
   * for the read-back, whose plan moves it from where it is, not from where this client last saw it
   * (a folder that may no longer be its own), unless another synced file of this root is the asset's
   * too (`MOVE`). Live elsewhere (filed out of the root): `GONE`. A
   * failure to reach the service is thrown: the move waits. `MOVE` comes with the options the asset
   * is filed in, for the move to leave (`move`'s `filed`), and its name (`move`'s `serviceName`).
   */
  async restore(root: UploadRoot, op: MoveOp, previous: SyncedEntry): Promise<{ verdict: 'MOVE'; filed: string[]; synced: SyncedEntry; filename: string | undefined } | 'WAIT' | 'GONE'> {
    const { api, folders } = this.deps;
    const asset = await unlessNotFound(api.getAsset(op.assetId));
    if (asset === undefined) return 'GONE';
    const filename = asset.currentAssetFile?.filename;
    const placements = asset.metadata.values[await folders.fieldId()] ?? [];
    if (asset.lifecycleStatus.state !== 'BINNED') {
      if ((await this.inRoot(root, placements)).length === 0) return 'GONE';
      // Filed in two folders here and taken out of the one the file left: the listing is not behind,
      // its other placement is synced here. The move wins, as over a removal of the whole asset: filed
      // where the file went, its other folder kept (`move` leaves the others of an asset not alone).
      // Waiting, the read-back's plan was this one again, on every pass.
      if (this.deps.otherPlacements(root.id, op.assetId, op.from) > 0) return { verdict: 'MOVE', filed: placements, synced: previous, filename };
      return 'WAIT';
    }
    const current = currentMd5(asset);
    if (current === undefined) return 'GONE';
    // The row at the asset's bytes before the transition is sent (journal before the side effect,
    // DESIGN.md §4), replaced where it is: the move records it at its new path. The move is written
    // ahead with it: from the transition on, the file matches that row by neither bytes nor (when
    // renamed) name, and a crash before the move's record would leave a deletion and a new file to
    // the next plan, the colleague's binned bytes live. The next pass finishes it instead
    // (`resumeMove`).
    const synced = current === previous.md5 ? previous : { ...previous, md5: current };
    this.deps.movingAhead(root.id, { from: op.from, assetId: op.assetId, local: op.local, restore: true }, synced);
    // The service restores only to the state the asset was binned from, which the resource does not
    // name: its dates tell (LIVE is never left; PENDING_APPROVAL may have gone back to STAGED).
    const { dateLive, datePendingApproval } = asset.lifecycleStatus;
    const candidates = dateLive !== null ? (['LIVE'] as const) : datePendingApproval !== null ? (['PENDING_APPROVAL', 'STAGED'] as const) : (['STAGED'] as const);
    for (const target of candidates) {
      try {
        expectEach(await api.transitionLifecycle({ type: 'BY_IDS', assetIds: [op.assetId] }, target), op.assetId);
        return { verdict: 'MOVE', filed: placements, synced, filename };
      } catch (error) {
        if (!refusedOutright(error)) throw error;
      }
    }
    this.deps.moveOff(root.id, op.from);
    return 'GONE';
  }

  /**
   * A move written ahead that a crash or a failure cut short (move-journal.ts), finished before the next
   * pass plans: the asset filed where the file went and renamed as it was (`move`, which records the
   * row at the file's path, at the synced bytes; a restored asset's row holds the asset's, and the
   * file's own go up as a version once the plan sees them). The service may have made any of these
   * changes already: made again, they change nothing. `previous`: the synced row still at the move's
   * old path. Answers 'OFF', the entry let go and nothing sent, when the asset never came back or went
   * again (binned, deleted, filed nowhere in this root) or, for a plain move, another folder of the
   * root holds it (a colleague's move: `move` waits for it): the plan then reads the file as it reads
   * any moved file. The service's refusal of the move lets it go too; a failure to reach the service
   * is thrown, and the entry waits.
   */
  async resumeMove(root: UploadRoot, move: MoveAhead, previous: SyncedEntry): Promise<'MOVED' | 'OFF'> {
    const off = (): 'OFF' => {
      this.deps.moveOff(root.id, move.from);
      return 'OFF';
    };
    const asset = await unlessNotFound(this.deps.api.getAsset(move.assetId));
    const placements = asset?.metadata.values[await this.deps.folders.fieldId()] ?? [];
    if (asset === undefined || asset.lifecycleStatus.state === 'BINNED' || (await this.inRoot(root, placements)).length === 0) return off();
    const op = { kind: 'MOVE', from: move.from, to: move.local.relPath, assetId: move.assetId, local: move.local } as const;
    try {
      if (!(await this.move(root, op, previous, move.restore ? placements : undefined, asset.currentAssetFile?.filename))) return off();
    } catch (error) {
      if (!refusedOutright(error)) throw error;
      return off();
    }
    return 'MOVED';
  }

  /** The options among `options` that lie in this root (`FolderMapper.inRoot`). */
  private async inRoot(root: UploadRoot, options: readonly string[]): Promise<string[]> {
    const inRoot = await Promise.all(options.map((option) => this.deps.folders.inRoot(root, option)));
    return options.filter((_, index) => inRoot[index]);
  }

  /**
   * A local folder rename or move (folder-renames.ts) as one option change, `PATCH /field-options/{id}`
   * with the new value and parent (DESIGN.md §3): every asset in it follows, binned ones too, so no
   * second option is left beside the first. Answers false, having changed nothing, when it cannot be
   * done that way and the moves go file by file as before: the old folder's option is not known, the
   * new one has an option already, or the service refuses the change (the hosted service has no such
   * PATCH, API.md [ours]; a sibling holds the name, 409). A failure to reach it is thrown: the moves wait.
   */
  async renameFolder(root: UploadRoot, rename: { from: string; to: string }): Promise<boolean> {
    const { api, folders } = this.deps;
    const option = folders.knownOption(root, rename.from);
    if (option === undefined || option === null || folders.knownOption(root, rename.to) !== undefined) return false;
    const parentFrom = relDirOf(rename.from);
    const parentTo = relDirOf(rename.to);
    const parent = parentFrom === parentTo ? {} : { parentId: await folders.optionFor(root, parentTo) };
    try {
      await api.changeFieldOption(option, { value: baseName(rename.to), ...parent });
    } catch (error) {
      if (refusedOutright(error)) return false;
      throw error;
    }
    // Sub-folders keep their options under it; the cache finds them again under the new path.
    folders.forget(root, rename.from);
    folders.remember(root, rename.to, option);
    return true;
  }

  /** A move its folder's rename carried on the service: recorded, nothing sent. */
  carried(root: UploadRoot, op: MoveOp, previous: SyncedEntry): void {
    this.deps.moved(root.id, op.from, { ...op.local, md5: previous.md5, assetId: op.assetId });
  }

  /** Takes the asset out of the deleted file's folder, or to the bin from its last (placement-removals.ts). */
  remove(root: UploadRoot, op: DeleteOp): Promise<'UNFILED' | 'BINNED' | 'ALREADY_GONE'> {
    return this.removals.remove(root, op);
  }

  /** Deletes the options of folders this pass emptied and that are gone from disk (placement-removals.ts). */
  removeEmptied(root: UploadRoot, dirs: Iterable<string>, kept: (relDir: string) => Promise<boolean>): Promise<string[]> {
    return this.removals.removeEmptied(root, dirs, kept);
  }
}

/** An answer that says no to the request itself (not a fault on the way, nor a session to refresh). */
function refusedOutright(error: unknown): boolean {
  return isApiError(error) && error.status !== undefined && error.status >= 400 && error.status < 500 && !error.retryable && error.status !== 401;
}

/**
 * The planner's rules for this client's own new-file uploads that are not settled yet (a journal entry
 * naming the asset, no synced row for it): such an upload is the resume's to settle (upload-executor.ts),
 * never a remote file to download nor a new file to upload again. Pure; part of the plan's input shaping
 * (plan-pass.ts). Must never write the journal: it only reads what the pass gathered.
 */
import { identityOf, type LocalEntry, type RemoteView, type SyncedEntry } from './sync-types.js';

/** What the planner reads of an upload journal entry. */
export interface OwnUpload {
  kind: 'NEW' | 'VERSION';
  relPath: string;
  assetId: string | null;
  /** The file as it was when the upload began. */
  local: Pick<LocalEntry, 'ino' | 'dev'>;
}

/**
 * The view, with the assets of own unsettled new-file uploads whose file is still on disk (at its path,
 * or moved: `movedFrom`) taken as unknown: the resume records the file at its path. Seen as a remote
 * file of its own, such an asset (listed as `A/C (2)` beside a folder `A/C`, its upload landed unheard
 * and the file unreadable to tell) came down beside the file it was made from, and the asset ended up
 * with two synced rows, filed in two folders by the next folder rename (plan-own-uploads.test.ts).
 */
export function withOwnUploads(view: RemoteView, uploads: readonly Pick<OwnUpload, 'kind' | 'relPath' | 'assetId'>[], local: ReadonlyMap<string, unknown>, synced: ReadonlyMap<string, SyncedEntry>, movedFrom: ReadonlySet<string> = new Set()): RemoteView {
  const recorded = new Set([...synced.values()].map((entry) => entry.assetId));
  const own = uploads.flatMap((entry) => (entry.kind === 'NEW' && entry.assetId !== null && (local.has(entry.relPath) || movedFrom.has(entry.relPath)) && !recorded.has(entry.assetId) ? [entry.assetId] : []));
  if (own.length === 0) return view;
  return { ...view, unknownAssets: new Set([...(view.unknownAssets ?? []), ...own]) };
}

/**
 * The files of own unsettled new-file uploads that moved on disk: the journal's path gone, the file
 * (device, inode) at a path nothing synced. Keyed by the file's path now, to the journal's path. Such a
 * file waits (busy) until its upload is settled where it was sent (the resume, or `dropAbandoned` at
 * the end of the pass): recorded there when it landed, the next plan sees a synced file moved; started
 * anew when it did not. Planned meanwhile, it goes up as a second asset beside the first one, which
 * landed unheard and comes down at the old path (plan-own-uploads.test.ts).
 */
export function movedOwnUploads(uploads: readonly Pick<OwnUpload, 'kind' | 'relPath' | 'local'>[], local: ReadonlyMap<string, LocalEntry>, unstable: ReadonlySet<string>, synced: ReadonlyMap<string, SyncedEntry>): Map<string, string> {
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

/** The own-upload shaping of a plan's inputs: the paths held for their upload's record, and the view. */
export interface OwnUploadsShaping {
  /** File's path now → the journal's path, for own new-file uploads moved on disk (`movedOwnUploads`). */
  moved: Map<string, string>;
  view: RemoteView | undefined;
}

/** Both own-upload rules over the disk as the pass scanned it. */
export function shapeOwnUploads(uploads: readonly OwnUpload[], scanned: { local: ReadonlyMap<string, LocalEntry>; unstable: ReadonlySet<string> }, synced: ReadonlyMap<string, SyncedEntry>, view: RemoteView | undefined): OwnUploadsShaping {
  const moved = movedOwnUploads(uploads, scanned.local, scanned.unstable, synced);
  return { moved, view: view === undefined ? undefined : withOwnUploads(view, uploads, scanned.local, synced, new Set(moved.values())) };
}

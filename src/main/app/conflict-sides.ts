/**
 * What the window shows of a conflict's two versions beyond the state database: who changed the
 * service's version (the signed-in user is "you", anyone else by name) and the thumbnails of both. The
 * app answers a thumbnail by conflict id alone (`/conflict-preview/<id>/<mine|theirs>`, served by the
 * control server and by the desktop's app:// handler): the local copy it finds itself and makes small;
 * the service's it fetches through the asset's preview URL, asked afresh (they are signed and expire).
 * The service's details are asked once per conflict and version, in the background, and the state is
 * published again when they arrive; until then, and when the service cannot say, nothing is claimed.
 * Either version opens with the system: ours is the copy; the service's is the file under its name
 * while it is still the version downloaded, else a fresh, verified download into the state directory.
 * Must never: read or serve a path a request names (only a conflict's own copy, inside its folder),
 * nor say "someone else" of the signed-in user's own change.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Conflict } from '../db/conflicts-repo.js';
import { locateInsideRoot, sameSignature, type Clock, type FileSystem } from '../local/index.js';
import type { ConflictAuthor, ConflictSide, ConflictSideName } from '../../shared/bridge/app-state.js';
import { AppError } from './app-error.js';
import type { EngineSession } from './engine-session.js';
import { fetchVerifiedFile } from './fetch-verified-file.js';
import { thumbnailUrl } from './thumbnail-url.js';
import { WEB_IMAGE_HEAD_BYTES, webImageTypeOf } from '../../shared/api/web-image-type.js';
import { loadOnce } from '../../shared/load-once.js';

/** sharp, loaded with the first thumbnail: most starts show none. */
const loadSharp = loadOnce(() => import('sharp').then((module) => module.default));

/** A thumbnail's bytes, as served. */
export interface ConflictPreview {
  contentType: string;
  bytes: Uint8Array;
}

/** What the service says of the asset's current file. */
interface ServiceSide {
  fileId: string | null;
  author: ConflictAuthor | null;
  hasPreview: boolean;
  /** The file is of a kind the service makes a preview of, in the background: it is asked again later. */
  previewPending: boolean;
  askedAt: number;
}

/** Kinds of local file the app makes a thumbnail of (what sharp reads). */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.avif', '.tif', '.tiff']);
/** A thumbnail's longer side: twice the view's box, for sharp screens. */
const THUMBNAIL_PX = 256;
/** After the service could not answer, or had no preview yet, it is asked again no sooner than this. */
const ASK_AGAIN_MS = 60_000;

export function hasLocalThumbnail(relPath: string): boolean {
  return IMAGE_EXTENSIONS.has(extname(relPath).toLowerCase());
}

/** The address at which the app serves a conflict's thumbnail; `version` changes with the bytes shown. */
export function conflictPreviewPath(conflictId: number, side: ConflictSideName, version: string): string {
  return `/conflict-preview/${conflictId}/${side}?v=${encodeURIComponent(version)}`;
}

/** A thumbnail address: the conflict's id and the version, nothing that names a file. */
const PREVIEW_PATH = /^\/conflict-preview\/(\d{1,12})\/(mine|theirs)$/;

/** The conflict and version a thumbnail address (its path, without the query) asks for; undefined when it is not one. */
export function parseConflictPreviewPath(pathname: string): { conflictId: number; side: ConflictSideName } | undefined {
  const match = PREVIEW_PATH.exec(pathname);
  if (match === null) return undefined;
  return { conflictId: Number(match[1]), side: match[2] === 'mine' ? 'mine' : 'theirs' };
}

/** Who added the service's file, in the window's terms: the signed-in user, a named person, or unknown. */
export function authorOf(addedBy: string | null, userId: string | null, name: string | null): ConflictAuthor | null {
  if (addedBy === null) return null;
  if (userId !== null && addedBy === userId) return { kind: 'you' };
  return name === null || name.trim() === '' ? null : { kind: 'person', name };
}

export interface ConflictSidesParts {
  session: () => EngineSession | undefined;
  fs: FileSystem;
  clock: Clock;
  /** The service's details arrived: the state is built again. */
  changed: () => void;
  /** Opens a file with the system; absent where nothing can. */
  openPath: ((path: string, options: { reveal: boolean }) => Promise<void>) | undefined;
  /** Where the service's versions are downloaded to be opened (private: inside the state directory). */
  versionsDir: string;
}

export class ConflictSides {
  private forSession: EngineSession | undefined;
  private readonly known = new Map<string, ServiceSide>();
  private readonly asking = new Set<string>();
  private readonly failedAt = new Map<string, number>();
  private readonly names = new Map<string, Promise<string | null>>();

  constructor(private readonly parts: ConflictSidesParts) {}

  /** Both versions' view of a conflict: what the database holds, with what the service said so far. */
  view(conflict: Conflict): { mine: ConflictSide; theirs: ConflictSide } {
    const service = this.serviceSide(conflict);
    return {
      mine: {
        size: conflict.local.size,
        modifiedAt: new Date(conflict.local.mtimeMs).toISOString(),
        modifiedBy: { kind: 'you' },
        previewUrl: hasLocalThumbnail(conflict.copyPath) ? conflictPreviewPath(conflict.id, 'mine', conflict.local.md5) : null,
      },
      theirs: {
        size: conflict.remote.size,
        modifiedAt: conflict.remote.dateModified,
        modifiedBy: service?.author ?? null,
        previewUrl: service?.hasPreview === true ? conflictPreviewPath(conflict.id, 'theirs', service.fileId ?? conflict.remote.fileId) : null,
      },
    };
  }

  /** A conflict's thumbnail by its id; undefined when that version has none. */
  async preview(conflictId: number, side: ConflictSideName): Promise<ConflictPreview | undefined> {
    const { current, conflict } = this.conflictOf(conflictId);
    return side === 'mine' ? this.localThumbnail(current, conflict) : this.servicePreview(current, conflict);
  }

  /** Opens one version of a conflict with the system. */
  async open(conflictId: number, side: ConflictSideName): Promise<void> {
    const { current, conflict } = this.conflictOf(conflictId);
    const open = this.parts.openPath;
    if (open === undefined) throw new AppError('OPEN_FAILED', 'Opening files is not available here.');
    const root = current.engine.store.root(conflict.rootId);
    if (root === undefined) throw new AppError('NOT_FOUND', `Conflict ${conflictId} belongs to a folder that is no longer synced.`);
    if (side === 'mine') {
      const copy = await locateInsideRoot(this.parts.fs, root.path, conflict.copyPath);
      if (copy.existing?.kind !== 'file') throw new AppError('NOT_FOUND', `Your version, ${conflict.copyPath}, is no longer in the folder.`);
      await open(copy.absPath, { reveal: false });
      return;
    }
    const original = await locateInsideRoot(this.parts.fs, root.path, conflict.relPath).catch(() => undefined);
    const synced = current.engine.store.resolution.snapshots.syncedEntry(root.id, conflict.relPath);
    // The file under its name is the service's version only while it is untouched since it was downloaded.
    if (original?.existing?.kind === 'file' && synced !== undefined && synced.md5 === conflict.remote.md5 && sameSignature(original.existing, synced)) {
      await open(original.absPath, { reveal: false });
      return;
    }
    const outcome = await current.api.requestDownloads([{ batchItemId: '0', assetId: conflict.assetId, assetFileId: conflict.remote.fileId }]);
    const failure = outcome.failures['0'];
    if (failure !== undefined) throw failure;
    const item = outcome.successes['0'];
    if (item === undefined) throw new AppError('NOT_FOUND', `The service gave no file for ${conflict.relPath}.`);
    const dir = join(this.parts.versionsDir, String(conflict.id));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await open((await fetchVerifiedFile(current.api, dir, item)).path, { reveal: false });
  }

  private conflictOf(conflictId: number): { current: EngineSession; conflict: Conflict } {
    const current = this.parts.session();
    if (current === undefined) throw new AppError('NOT_SIGNED_IN', 'Sign in (or use the built-in local library) first.');
    const conflict = current.engine.store.conflicts().find((row) => row.id === conflictId);
    if (conflict === undefined) throw new AppError('NOT_FOUND', `There is no conflict ${conflictId}; it may be resolved already.`);
    return { current, conflict };
  }

  private async localThumbnail(current: EngineSession, conflict: Conflict): Promise<ConflictPreview | undefined> {
    if (!hasLocalThumbnail(conflict.copyPath)) return undefined;
    const root = current.engine.store.root(conflict.rootId);
    if (root === undefined) return undefined;
    // Only the conflict's own copy, found inside its folder (no symbolic link on the way).
    const located = await locateInsideRoot(this.parts.fs, root.path, conflict.copyPath).catch(() => undefined);
    if (located?.existing?.kind !== 'file') return undefined;
    const sharp = await loadSharp();
    const bytes = await sharp(located.absPath, { animated: false })
      .rotate()
      .resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer()
      .catch(() => undefined);
    return bytes === undefined ? undefined : { contentType: 'image/webp', bytes };
  }

  private async servicePreview(current: EngineSession, conflict: Conflict): Promise<ConflictPreview | undefined> {
    const asset = await current.api.getAsset(conflict.assetId);
    const file = asset.currentAssetFile;
    const url = file === null ? null : thumbnailUrl(file, THUMBNAIL_PX);
    if (url === null) return undefined;
    const dir = await mkdtemp(join(tmpdir(), 'asset-sync-preview-'));
    try {
      const path = join(dir, 'preview');
      await current.api.downloadToFile(url, path);
      const bytes = await readFile(path);
      // A WEBP of ours, or the hosted service's preview as it is (the original of a web image): named
      // by its bytes, and only when they are a raster image (the window decodes it, not the app; an SVG
      // is markup the app will not serve from its own origin).
      const contentType = webImageTypeOf(bytes.subarray(0, WEB_IMAGE_HEAD_BYTES));
      return contentType === undefined || contentType === 'image/svg+xml' ? undefined : { contentType, bytes };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** What the service said of this conflict's version, asking it in the background the first time. */
  private serviceSide(conflict: Conflict): ServiceSide | undefined {
    const current = this.parts.session();
    if (current !== this.forSession) {
      this.forSession = current;
      this.known.clear();
      this.asking.clear();
      this.failedAt.clear();
      this.names.clear();
    }
    if (current === undefined) return undefined;
    const key = `${conflict.id}:${conflict.remote.fileId}`;
    const known = this.known.get(key);
    const stale = known !== undefined && known.previewPending && this.parts.clock.now() - known.askedAt >= ASK_AGAIN_MS;
    if ((known !== undefined && !stale) || this.asking.has(key)) return known;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && this.parts.clock.now() - failed < ASK_AGAIN_MS) return undefined;
    this.asking.add(key);
    void this.ask(current, conflict).then(
      (side) => {
        if (this.forSession !== current) return;
        this.asking.delete(key);
        this.known.set(key, side);
        this.parts.changed();
      },
      () => {
        if (this.forSession !== current) return;
        this.asking.delete(key);
        this.failedAt.set(key, this.parts.clock.now());
      },
    );
    return undefined;
  }

  private async ask(current: EngineSession, conflict: Conflict): Promise<ServiceSide> {
    const askedAt = this.parts.clock.now();
    const file = (await current.api.getAsset(conflict.assetId)).currentAssetFile;
    if (file === null) return { fileId: null, author: null, hasPreview: false, previewPending: false, askedAt };
    const addedBy = file.addedBy;
    const mine = addedBy !== null && addedBy === current.userId;
    const name = addedBy === null || mine ? null : await this.nameOf(current, addedBy);
    const hasPreview = thumbnailUrl(file, THUMBNAIL_PX) !== null;
    // Images and documents get a preview; while it is being made the service answers null (ours says
    // when it never will).
    const previewPending = (file.previewUrl ?? null) === null && file.previewState !== 'FAILED' && file.previewState !== 'NONE' && (file.fileType === 'IMAGE' || file.fileType === 'DOCUMENT');
    return { fileId: file.id, author: authorOf(addedBy, current.userId, name), hasPreview, previewPending, askedAt };
  }

  /** A user's name (else e-mail), asked once per session; null when the service will not say. */
  private nameOf(current: EngineSession, userId: string): Promise<string | null> {
    let name = this.names.get(userId);
    if (name === undefined) {
      name = current.api.getUser(userId).then(
        (user) => user.name ?? (user.email === '' ? null : user.email),
        () => null,
      );
      this.names.set(userId, name);
    }
    return name;
  }
}

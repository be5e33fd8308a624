/**
 * Makes the previews the service renders (preview-form.ts says which files get one rather than their
 * own bytes) and the sized variants of every preview. A rendered preview is made once, in the
 * background: a stored file of a rendered form is queued when its upload completes (never rendered on
 * the upload's request path; a file whose preview is its own bytes is not queued at all) and the queue
 * renders one at a time, off the request path of everything else too. A preview asked for before its
 * turn (or of a file stored before previews existed) is rendered for that request, sharing the
 * queue's rendering when one is under way. Sized variants are made only when first asked for, from the
 * original bytes (a file served as it is) or from the rendered preview (the rest), at one of
 * VARIANT_SIZES. Everything here is content-addressed (previews/<sha256>.webp, the PREVIEW_SIZE one;
 * previews/<sha256>-<size>.webp, the smaller variants), is no file of anyone's (it counts toward no
 * storage figure), and goes with its blob (blob-store's derivedOf).
 *
 * The rendering itself is `renderFile`: in the service, a job of the render cage (render-cage/), so
 * a user's file is never decoded in this process. A file whose preview or variant cannot be made
 * (refused, killed over a limit, unreadable) is recorded in preview_failures with why, kept across
 * restarts: it is not rendered again, and its rendered preview reads "could not be made" (`failureOf`)
 * instead of waiting forever. A file served as it is keeps serving its bytes; only its variants fail.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makePrivateDir, renamePrivate } from '../data-dir/private-files.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore, BlobSource } from '../blobs/blob-store.js';
import type { Db } from '../db/open-database.js';
import { PREVIEW_SIZE, VARIANT_SIZES, previewFormOf, type PreviewFacts, type PreviewKind } from './preview-form.js';

/** What the maker needs of an AssetFile row. */
export interface PreviewSource extends PreviewFacts {
  sha256: string;
  /** Whose file it is: renders wait in their account's turn. */
  account_id: string;
}

/** Why a preview could not be made: a RenderFailure's reason and its message for people. */
export interface PreviewFailure {
  reason: string;
  message: string;
}

/** One render: `kind` of `source` (of `mediaType`) into `target`, at most `size` px on its longer side. */
export interface PreviewRender {
  kind: PreviewKind;
  source: BlobSource;
  mediaType: string;
  target: string;
  size: number;
}

/** Renders a preview of the file into `render.target`; rejects (with a `reason` when it has one) when it cannot. */
export type RenderPreviewFile = (file: PreviewSource, render: PreviewRender) => Promise<void>;

export class PreviewMaker {
  private readonly queue: PreviewSource[] = [];
  /** Renders under way, by target path. */
  private readonly rendering = new Map<string, Promise<boolean>>();
  private draining: Promise<void> | undefined;
  private closed = false;
  private sequence = 0;

  private readonly failureBySha;
  private readonly failuresBySha;
  private readonly recordFailure;
  private readonly forgetFailure;

  constructor(
    private readonly dir: string,
    private readonly blobs: BlobStore,
    private readonly log: FastifyBaseLogger,
    db: Db,
    private readonly renderFile: RenderPreviewFile,
    private readonly nowIso: () => string,
  ) {
    makePrivateDir(dir);
    this.failureBySha = db.prepare<[string], PreviewFailure>('SELECT reason, message FROM preview_failures WHERE sha256 = ?');
    this.failuresBySha = db.prepare<[string], PreviewFailure & { sha256: string }>(
      'SELECT sha256, reason, message FROM preview_failures WHERE sha256 IN (SELECT value FROM json_each(?))',
    );
    this.recordFailure = db.prepare('INSERT OR REPLACE INTO preview_failures (sha256, reason, message, date_failed) VALUES (?, ?, ?, ?)');
    this.forgetFailure = db.prepare('DELETE FROM preview_failures WHERE sha256 = ?');
  }

  /** Why the file's rendered preview (or its variants) could not be made; undefined while they can be. */
  failureOf(sha256: string): PreviewFailure | undefined {
    return this.failureBySha.get(sha256);
  }

  /** `failureOf` for many blobs in one read (a page of search results): those whose previews could not be made. */
  failuresOf(sha256s: readonly string[]): Map<string, PreviewFailure> {
    if (sha256s.length === 0) return new Map();
    return new Map(this.failuresBySha.all(JSON.stringify(sha256s)).map(({ sha256, reason, message }) => [sha256, { reason, message }]));
  }

  /** The blob is gone: so is what was recorded about its previews. Answers their paths, for the caller to remove. */
  forget(sha256: string): string[] {
    this.forgetFailure.run(sha256);
    return VARIANT_SIZES.map((size) => this.pathOf(sha256, size));
  }

  /** The path of the blob's rendered preview (`size` PREVIEW_SIZE) or of its variant of `size`. */
  pathOf(sha256: string, size = PREVIEW_SIZE): string {
    return join(this.dir, size === PREVIEW_SIZE ? `${sha256}.webp` : `${sha256}-${size}.webp`);
  }

  /** Queues the file's rendered preview, when it has one to render; returns at once. */
  enqueue(file: PreviewSource): void {
    if (this.closed || previewFormOf(file)?.form !== 'rendered' || existsSync(this.pathOf(file.sha256))) return;
    this.queue.push(file);
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  /**
   * The path of the file's rendered preview (PREVIEW_SIZE px) once it exists, rendered from the file
   * now if need be; undefined when the file has none or it cannot be made. A file served as it is has
   * one too: the largest variant, and what its preview was before originals were served.
   */
  async ensure(file: PreviewSource): Promise<string | undefined> {
    const kind = kindOf(file);
    if (kind === undefined) return undefined;
    const path = this.pathOf(file.sha256);
    if (existsSync(path)) return path;
    const made = await this.render(file, { kind, source: this.blobs.source(file.sha256), mediaType: `${file.media_type}/${file.media_subtype}`, target: path, size: PREVIEW_SIZE });
    return made ? path : undefined;
  }

  /**
   * The path of the file's variant of `size` (one of VARIANT_SIZES) once it exists, made now if need
   * be: from the original bytes when the file is served as it is, else from its rendered preview.
   */
  async ensureVariant(file: PreviewSource, size: number): Promise<string | undefined> {
    const form = previewFormOf(file);
    if (form === undefined) return undefined;
    if (size >= PREVIEW_SIZE) return this.ensure(file);
    const path = this.pathOf(file.sha256, size);
    if (existsSync(path)) return path;
    if (form.form === 'original') {
      const made = await this.render(file, { kind: 'image', source: this.blobs.source(file.sha256), mediaType: form.contentType, target: path, size });
      return made ? path : undefined;
    }
    const rendered = await this.ensure(file);
    if (rendered === undefined) return undefined;
    const made = await this.render(file, { kind: 'image', source: { path: rendered }, mediaType: 'image/webp', target: path, size });
    return made ? path : undefined;
  }

  /** Resolves when the queue is empty (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.draining;
  }

  private async drain(): Promise<void> {
    for (let file = this.queue.shift(); file !== undefined && !this.closed; file = this.queue.shift()) {
      await nextTurn();
      await this.ensure(file);
    }
  }

  private render(file: PreviewSource, job: PreviewRender): Promise<boolean> {
    if (this.failureOf(file.sha256) !== undefined) return Promise.resolve(false);
    const target = job.target;
    let pending = this.rendering.get(target);
    if (pending === undefined) {
      const temporary = `${target}.${process.pid}.${++this.sequence}.tmp`;
      pending = this.renderFile(file, { ...job, target: temporary })
        .then(() => {
          renamePrivate(temporary, target);
          return true;
        })
        .catch((error: unknown) => {
          const reason = error instanceof Error && 'reason' in error && typeof error.reason === 'string' ? error.reason : 'UNREADABLE';
          this.log.warn({ err: error, sha256: file.sha256, size: job.size }, 'preview could not be rendered');
          // Not the file's fault (the service closing, no render process): tried again when next asked.
          if (this.closed || reason === 'UNAVAILABLE') return false;
          this.recordFailure.run(file.sha256, reason, error instanceof Error ? error.message : String(error), this.nowIso());
          return false;
        })
        .finally(() => {
          rmSync(temporary, { force: true });
          this.rendering.delete(target);
        });
      this.rendering.set(target, pending);
    }
    return pending;
  }
}

/** What the file's rendered preview is made from: an original is rendered as the image it is. */
function kindOf(file: PreviewSource): PreviewKind | undefined {
  const form = previewFormOf(file);
  return form === undefined ? undefined : form.form === 'original' ? 'image' : form.kind;
}

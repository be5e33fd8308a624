/**
 * Makes previews once, in the background: a stored file is queued when its upload completes (never
 * rendered on the upload's request path) and the queue renders one at a time, off the request path of
 * everything else too. A preview asked for before its turn (or of a file stored before previews
 * existed) is rendered for that request, sharing the queue's rendering when one is under way. Previews
 * are content-addressed (previews/<sha256>.webp) and go with their blob (blob-store's derivedOf).
 *
 * The rendering itself is `renderFile`: in the service, a job of the render cage (render-cage/), so
 * a user's file is never decoded in this process. A file whose preview cannot be made (refused, killed
 * over a limit, unreadable) is recorded in preview_failures with why, kept across restarts: it is not
 * rendered again, and its preview reads "could not be made" (`failureOf`) instead of waiting forever.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makePrivateDir, renamePrivate } from '../data-dir/private-files.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore, BlobSource } from '../blobs/blob-store.js';
import type { Db } from '../db/open-database.js';
import type { PreviewKind } from './render-preview.js';
import { previewKind } from './render-preview.js';

/** What the maker needs of an AssetFile row. */
export interface PreviewSource {
  sha256: string;
  media_type: string;
  media_subtype: string;
  size: number;
  /** Whose file it is: renders wait in their account's turn. */
  account_id: string;
}

/** Why a preview could not be made: a RenderFailure's reason and its message for people. */
export interface PreviewFailure {
  reason: string;
  message: string;
}

/** Renders a preview into `target`; rejects (with a `reason` when it has one) when it cannot. */
export type RenderPreviewFile = (file: PreviewSource, kind: PreviewKind, source: BlobSource, mediaType: string, target: string) => Promise<void>;

export class PreviewMaker {
  private readonly queue: PreviewSource[] = [];
  private readonly rendering = new Map<string, Promise<boolean>>();
  private draining: Promise<void> | undefined;
  private closed = false;
  private sequence = 0;

  private readonly failureBySha;
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
    this.recordFailure = db.prepare('INSERT OR REPLACE INTO preview_failures (sha256, reason, message, date_failed) VALUES (?, ?, ?, ?)');
    this.forgetFailure = db.prepare('DELETE FROM preview_failures WHERE sha256 = ?');
  }

  /** Why the file's preview could not be made; undefined while it can be (made, or not yet). */
  failureOf(sha256: string): PreviewFailure | undefined {
    return this.failureBySha.get(sha256);
  }

  /** The blob is gone: so is what was recorded about its preview. Answers the preview's path, for the caller to remove. */
  forget(sha256: string): string {
    this.forgetFailure.run(sha256);
    return this.pathOf(sha256);
  }

  pathOf(sha256: string): string {
    return join(this.dir, `${sha256}.webp`);
  }

  /** Whether the file is of a kind that has a preview (it may still fail to render). */
  hasPreview(file: PreviewSource): boolean {
    return previewKind(file) !== undefined;
  }

  /** Queues the file's preview; returns at once. */
  enqueue(file: PreviewSource): void {
    if (this.closed || !this.hasPreview(file) || existsSync(this.pathOf(file.sha256))) return;
    this.queue.push(file);
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  /** The preview's path once it exists; undefined when the file has none or it cannot be rendered. */
  async ensure(file: PreviewSource): Promise<string | undefined> {
    const path = this.pathOf(file.sha256);
    if (existsSync(path)) return path;
    return (await this.render(file)) ? path : undefined;
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
      if (!existsSync(this.pathOf(file.sha256))) await this.render(file);
    }
  }

  private render(file: PreviewSource): Promise<boolean> {
    const kind = previewKind(file);
    if (kind === undefined || this.failureOf(file.sha256) !== undefined) return Promise.resolve(false);
    let pending = this.rendering.get(file.sha256);
    if (pending === undefined) {
      const target = this.pathOf(file.sha256);
      const temporary = `${target}.${process.pid}.${++this.sequence}.tmp`;
      pending = this.renderFile(file, kind, this.blobs.source(file.sha256), `${file.media_type}/${file.media_subtype}`, temporary)
        .then(() => {
          renamePrivate(temporary, target);
          return true;
        })
        .catch((error: unknown) => {
          const reason = error instanceof Error && 'reason' in error && typeof error.reason === 'string' ? error.reason : 'UNREADABLE';
          this.log.warn({ err: error, sha256: file.sha256 }, 'preview could not be rendered');
          // Not the file's fault (the service closing, no render process): tried again when next asked.
          if (this.closed || reason === 'UNAVAILABLE') return false;
          this.recordFailure.run(file.sha256, reason, error instanceof Error ? error.message : String(error), this.nowIso());
          return false;
        })
        .finally(() => {
          rmSync(temporary, { force: true });
          this.rendering.delete(file.sha256);
        });
      this.rendering.set(file.sha256, pending);
    }
    return pending;
  }
}

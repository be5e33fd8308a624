/**
 * Makes previews once, in the background: a stored file is queued when its upload completes (never
 * rendered on the upload's request path) and the queue renders one at a time, off the request path of
 * everything else too. A preview asked for before its turn (or of a file stored before previews
 * existed) is rendered for that request, sharing the queue's rendering when one is under way. Previews
 * are content-addressed (previews/<sha256>.webp) and go with their blob (blob-store's derivedOf). A
 * file that cannot be rendered is remembered until the process ends, so it is not tried again and again.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makePrivateDir, renamePrivate } from '../data-dir/private-files.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobs/blob-store.js';
import { previewKind, renderPreview } from './render-preview.js';
import { DocumentRenderer } from './document-renderer.js';

/** What the maker needs of an AssetFile row. */
export interface PreviewSource {
  sha256: string;
  media_type: string;
  media_subtype: string;
  size: number;
}

export class PreviewMaker {
  private readonly queue: PreviewSource[] = [];
  private readonly rendering = new Map<string, Promise<boolean>>();
  private readonly failed = new Set<string>();
  private draining: Promise<void> | undefined;
  private closed = false;
  private sequence = 0;

  constructor(
    private readonly dir: string,
    private readonly blobs: BlobStore,
    private readonly log: FastifyBaseLogger,
    /** Documents' pages render on its worker thread (closed with the previews); images through sharp, which works off the loop already. */
    private readonly documents: DocumentRenderer = new DocumentRenderer(),
  ) {
    makePrivateDir(dir);
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
    await this.documents.close();
  }

  private async drain(): Promise<void> {
    for (let file = this.queue.shift(); file !== undefined && !this.closed; file = this.queue.shift()) {
      await nextTurn();
      if (!existsSync(this.pathOf(file.sha256))) await this.render(file);
    }
  }

  private render(file: PreviewSource): Promise<boolean> {
    const kind = previewKind(file);
    if (kind === undefined || this.failed.has(file.sha256)) return Promise.resolve(false);
    let pending = this.rendering.get(file.sha256);
    if (pending === undefined) {
      const target = this.pathOf(file.sha256);
      const temporary = `${target}.${process.pid}.${++this.sequence}.tmp`;
      pending = renderPreview(kind, this.blobs.source(file.sha256), `${file.media_type}/${file.media_subtype}`, temporary, this.documents)
        .then(() => {
          renamePrivate(temporary, target);
          return true;
        })
        .catch((error: unknown) => {
          this.failed.add(file.sha256);
          this.log.warn({ err: error, sha256: file.sha256 }, 'preview could not be rendered');
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

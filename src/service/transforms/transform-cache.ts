/**
 * The cache of transformed files, keyed by (source blob, resolved operations): each is rendered once,
 * into transforms/<key>.<ext>, and recorded in transformed_files; a second download of the same file
 * with the same transformation reads it back. Concurrent requests for one key share one rendering. The
 * cached files go with their source blob (blob-store's derivedOf calls `forget`). Never fsynced: a
 * cached file that is missing or short after a crash is rendered again, never served. Every rendering
 * of the service goes through the render cage (render-cage/), which bounds how many run at once and
 * takes accounts in turn (`owner`); an in-process renderer (tests) gets a ConcurrencyLimit of slots here.
 */
import { createHash } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { availableParallelism } from 'node:os';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, renamePrivate } from '../data-dir/private-files.js';
import type { BlobSource } from '../blobs/blob-store.js';
import type { Db } from '../db/open-database.js';
import type { ResolvedOperation } from './plan-transformation.js';
import { md5Of, renderTransformation, type RenderedFile, type RenderTransformation } from './render-transformation.js';
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';

/** Sharp pipelines at once: libvips threads inside each, so no more than the cores (and at most 4). */
export const RENDER_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));

export interface TransformRow {
  key: string;
  source_sha256: string;
  operations: string;
  extension: string;
  content_type: string;
  size: number;
  checksum: string;
  date_created: string;
}

/**
 * Each rendering's sharp pipeline, as it starts (a slot taken) and ends: `{ phase, key, at }` with `at`
 * from performance.now(). For the transform bench's phases (queue wait, render); publishing costs
 * nothing while no one subscribes.
 */
export const renderTimeline = channel('asset-sync:transform-render');

export interface RenderTimelineEvent {
  phase: 'start' | 'end';
  key: string;
  at: number;
}

/** A RenderTransformation told whose file it is (`owner`) and the rendition's key (`label`), as the render cage takes them. */
export type OwnedRenderTransformation = (...args: [...Parameters<RenderTransformation>, owner: string, label: string]) => Promise<RenderedFile>;

/** What a file comes out as after a download's transformation: itself, or a cached rendition. */
export type TransformOutcome = { kind: 'original' } | { kind: 'transformed'; row: TransformRow };

export function transformKey(sourceSha256: string, operations: readonly ResolvedOperation[]): string {
  return createHash('sha256').update(JSON.stringify({ v: 1, source: sourceSha256, operations })).digest('hex');
}

export class TransformCache {
  private readonly byKey;
  private readonly bySource;
  private readonly insert;
  private readonly removeSource;
  private readonly rendering = new Map<string, Promise<TransformRow>>();
  private sequence = 0;
  private readonly slots: ConcurrencyLimit | undefined;

  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly nowIso: () => string,
    /** Renders at once; null when `renderFile` bounds that itself (the render cage). */
    concurrency: number | null = RENDER_CONCURRENCY,
    private readonly renderFile: OwnedRenderTransformation = (source, operations, inputSubtype, target) => renderTransformation(source, operations, inputSubtype, target),
  ) {
    this.slots = concurrency === null ? undefined : new ConcurrencyLimit(concurrency);
    makePrivateDir(dir);
    this.byKey = db.prepare<[string], TransformRow>('SELECT * FROM transformed_files WHERE key = ?');
    this.bySource = db.prepare<[string], TransformRow>('SELECT * FROM transformed_files WHERE source_sha256 = ?');
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO transformed_files (key, source_sha256, operations, extension, content_type, size, checksum, date_created)
       VALUES (@key, @source_sha256, @operations, @extension, @content_type, @size, @checksum, @date_created)`,
    );
    this.removeSource = db.prepare('DELETE FROM transformed_files WHERE source_sha256 = ?');
  }

  pathOf(row: Pick<TransformRow, 'key' | 'extension'>): string {
    return join(this.dir, `${row.key}.${row.extension}`);
  }

  get(key: string): TransformRow | undefined {
    return this.byKey.get(key);
  }

  /** The cached rendition, rendered now (in `owner`'s turn) when it is not there (or its file is missing or short). */
  ensure(sourceSha256: string, source: () => BlobSource, operations: readonly ResolvedOperation[], inputSubtype: string, owner: string): Promise<TransformRow> {
    const key = transformKey(sourceSha256, operations);
    const known = this.byKey.get(key);
    if (known !== undefined && statSync(this.pathOf(known), { throwIfNoEntry: false })?.size === known.size) return Promise.resolve(known);
    let pending = this.rendering.get(key);
    if (pending === undefined) {
      pending = this.render(key, sourceSha256, source(), operations, inputSubtype, owner).finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  /**
   * Tries the plans in order and answers the first that renders; the original when a plan says so
   * (an empty list), when none is given, or when every one fails on these bytes.
   */
  async transform(sourceSha256: string, source: () => BlobSource, plans: readonly ResolvedOperation[][], inputSubtype: string, owner: string): Promise<TransformOutcome> {
    for (const operations of plans) {
      if (operations.length === 0) return { kind: 'original' };
      try {
        return { kind: 'transformed', row: await this.ensure(sourceSha256, source, operations, inputSubtype, owner) };
      } catch {
        // These bytes do not allow this candidate (a crop outside the image, a damaged file): next.
      }
    }
    return { kind: 'original' };
  }

  /** Forgets every rendition of a blob; answers their files for the caller to remove. */
  forget(sourceSha256: string): string[] {
    const paths = this.bySource.all(sourceSha256).map((row) => this.pathOf(row));
    this.removeSource.run(sourceSha256);
    return paths;
  }

  private async render(key: string, sourceSha256: string, source: BlobSource, operations: readonly ResolvedOperation[], inputSubtype: string, owner: string): Promise<TransformRow> {
    const temporary = join(this.dir, `${key}.${process.pid}.${++this.sequence}.tmp`);
    try {
      // A slot covers the sharp pipeline alone (libvips threads inside it): the checksum, rename and row
      // follow outside, so the next pipeline starts the moment this one ends.
      const renderOnce = async (): Promise<RenderedFile> => {
        if (renderTimeline.hasSubscribers) renderTimeline.publish({ phase: 'start', key, at: performance.now() } satisfies RenderTimelineEvent);
        try {
          return await this.renderFile(source, operations, inputSubtype, temporary, owner, key);
        } finally {
          if (renderTimeline.hasSubscribers) renderTimeline.publish({ phase: 'end', key, at: performance.now() } satisfies RenderTimelineEvent);
        }
      };
      const rendered = this.slots === undefined ? await renderOnce() : await this.slots.run(renderOnce);
      // Read back outside the slot: the next pipeline is already running meanwhile.
      const checksum = await md5Of(temporary, rendered.size);
      const row: TransformRow = {
        key,
        source_sha256: sourceSha256,
        operations: JSON.stringify(operations),
        extension: rendered.extension,
        content_type: rendered.contentType,
        size: rendered.size,
        checksum,
        date_created: this.nowIso(),
      };
      renamePrivate(temporary, this.pathOf(row));
      this.insert.run(row);
      return row;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
}

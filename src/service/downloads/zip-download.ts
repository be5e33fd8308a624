/**
 * Zipped downloads: one zip of every item of a download job, streamed with yazl, never written out.
 * Entries are stored, not deflated (images and documents are compressed already), with fixed names
 * and dates, so the zip is the same bytes every time: its size and MD5 are known when the job ends
 * (one pass through a hash), and `Range` is served by producing the stream again and skipping to the
 * start, so an interrupted zip download resumes like any file.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import type { DownloadItem, DownloadZip } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { FileRow } from '../assets/assets-repo.js';
import { notFound } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import type { TransformCache } from '../transforms/transform-cache.js';
import { sendRanged } from './send-ranged.js';
import { zipEntryName } from './zip-entry-name.js';

const zipEntry = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mtime: z.string(),
  sha256: z.string().optional(),
  renditionKey: z.string().optional(),
});
type ZipEntry = z.infer<typeof zipEntry>;

interface ZipRow {
  id: string;
  job_id: string;
  entries: string;
  size: number;
  checksum: string;
}

/** `name.ext`, `name (2).ext`, … : a zip with two entries of one name unpacks to one file. */
function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Skips the first `start` bytes of a stream and ends after `length` more. */
class ByteWindow extends Transform {
  private position = 0;
  constructor(
    private readonly first: number,
    private readonly last: number,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const from = this.position;
    this.position += chunk.length;
    if (this.position > this.first && from <= this.last) this.push(chunk.subarray(Math.max(0, this.first - from), Math.min(chunk.length, this.last + 1 - from)));
    done();
  }
}

export class DownloadZips {
  private readonly insert;
  private readonly byId;
  private readonly fileById;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly blobs: BlobStore,
    private readonly transforms: TransformCache,
  ) {
    this.insert = ctx.db.prepare('INSERT INTO download_zips (id, job_id, entries, size, checksum) VALUES (@id, @job_id, @entries, @size, @checksum)');
    this.byId = ctx.db.prepare<[string], ZipRow>('SELECT * FROM download_zips WHERE id = ?');
    this.fileById = ctx.db.prepare<[string], FileRow>('SELECT * FROM asset_files WHERE id = ?');
  }

  /** The zip of a finished job's items (undefined items — failures — are left out). */
  async create(jobId: string, items: unknown[]): Promise<DownloadZip> {
    const taken = new Set<string>();
    const entries: ZipEntry[] = [];
    for (const item of items) {
      const entry = this.entryOf(item);
      if (entry !== undefined) entries.push({ ...entry, name: uniqueName(zipEntryName(entry.name), taken) });
    }
    const hash = createHash('md5');
    let size = 0;
    await pipeline(this.stream(entries), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
      }
    });
    const row: ZipRow = { id: timeOrderedUuid(), job_id: jobId, entries: JSON.stringify(entries), size, checksum: hash.digest('hex') };
    this.insert.run(row);
    return { zipUrl: this.ctx.signer.sign(`/download-zips/${row.id}`, {}, this.ctx.config.signedUrlTtl).url, filename: `download-${jobId}.zip`, size, checksum: row.checksum };
  }

  register(app: FastifyInstance): void {
    const params = z.object({ zipId: z.string().min(1).max(200) });
    app.get('/download-zips/:zipId', { config: { public: true } }, async (request, reply) => {
      const { zipId } = parseInput(params, request.params, 'INVALID_PATH');
      this.ctx.signer.verify(`/download-zips/${zipId}`, request.query as Record<string, string | undefined>, []);
      const row = this.byId.get(zipId);
      if (row === undefined) throw notFound('zip', zipId);
      const entries = z.array(zipEntry).parse(JSON.parse(row.entries) as unknown);
      return sendRanged(request, reply, {
        size: row.size,
        etag: `"${row.checksum}"`,
        contentType: 'application/zip',
        filename: `download-${row.job_id}.zip`,
        cacheControl: 'private, max-age=3600',
        open: (start, end) => {
          const stream = this.stream(entries);
          if (start === 0 && end === row.size - 1) return stream;
          const window = new ByteWindow(start, end);
          stream.on('error', (error) => window.destroy(error));
          return stream.pipe(window);
        },
      });
    });
  }

  /** Which bytes an item of the job stands for, read back from its signed URL's path. */
  private entryOf(item: unknown): Omit<ZipEntry, 'name'> & { name: string } | undefined {
    const parsed = z.object({ url: z.string(), filename: z.string() }).safeParse(item);
    if (!parsed.success) return undefined;
    const success: Pick<DownloadItem, 'url' | 'filename'> = parsed.data;
    const match = /\/files\/([^/]+)\/(content|renditions\/([0-9a-f]{64}))$/.exec(new URL(success.url).pathname);
    const file = match?.[1] === undefined ? undefined : this.fileById.get(match[1]);
    if (match === null || file === undefined) return undefined;
    const key = match[3];
    if (key === undefined) return { name: success.filename, size: file.size, mtime: file.date_added, sha256: file.sha256 };
    const rendition = this.transforms.get(key);
    if (rendition === undefined) return undefined;
    return { name: success.filename, size: rendition.size, mtime: file.date_added, renditionKey: key };
  }

  private stream(entries: readonly ZipEntry[]): Readable {
    const zip = new ZipFile();
    for (const entry of entries) {
      const options = { mtime: new Date(entry.mtime), compress: false, size: entry.size };
      if (entry.renditionKey !== undefined) {
        const rendition = this.transforms.get(entry.renditionKey);
        const path = rendition === undefined ? undefined : this.transforms.pathOf(rendition);
        zip.addReadStreamLazy(entry.name, options, (done) => {
          if (path === undefined) done(notFound('rendition', entry.renditionKey ?? ''), Readable.from([]));
          else done(null, createReadStream(path));
        });
        continue;
      }
      const source = this.blobs.source(entry.sha256 ?? '');
      if ('bytes' in source) zip.addBuffer(source.bytes, entry.name, options);
      else zip.addReadStreamLazy(entry.name, options, (done) => done(null, createReadStream(source.path, { highWaterMark: 1 << 20 })));
    }
    zip.end();
    // yazl's output is a PassThrough, typed only as a NodeJS.ReadableStream.
    const output = zip.outputStream;
    return output instanceof Readable ? output : Readable.from(output);
  }
}

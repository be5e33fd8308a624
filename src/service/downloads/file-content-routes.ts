/**
 * The targets of signed download URLs (previews have their own: previews/preview-route.ts). No bearer
 * token: the signature authorises the request, so these must never serve anything the URL was not
 * signed for. Originals and renditions honour `Range` (and `If-Range`) so interrupted downloads resume.
 */
import { createReadStream, readFileSync, statSync, type ReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { FileRow } from '../assets/assets-repo.js';
import type { TransformCache, TransformRow } from '../transforms/transform-cache.js';
import { renditionName } from './download-job.js';
import { sendRanged } from './send-ranged.js';
import type { ResolvedOperation } from '../transforms/plan-transformation.js';

const fileParams = z.object({ fileId: z.uuid('is not a file id') });
const renditionParams = fileParams.extend({ key: z.string().regex(/^[0-9a-f]{64}$/, 'is not a rendition key') });

/**
 * Renditions up to this size are read whole, synchronously, in the request: a web-sized JPEG (~100–200
 * KB) read from the page cache costs tens of µs, while a stream costs three thread-pool round trips
 * (open, read, close) that wait behind every other user of the pool — ~30 ms a GET right after a download
 * job, when its renditions are fetched. Larger ones (a print TIFF) are streamed.
 */
export const SMALL_RENDITION_BYTES = 512 * 1024;

/** The rendition's bytes when it is small and whole on disk; undefined when large, missing or short. */
function readSmall(path: string, size: number): Buffer | undefined {
  if (size > SMALL_RENDITION_BYTES) return undefined;
  try {
    const bytes = readFileSync(path);
    return bytes.length === size ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export function registerFileContentRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { blobs: BlobStore; transforms: TransformCache }): void {
  const { blobs, transforms } = deps;
  const fileById = ctx.db.prepare<[string], FileRow>('SELECT * FROM asset_files WHERE id = ?');
  // A file's row with its bytes when they are kept inline (blobs/inline-blobs.ts): one read for a small file's GET.
  const fileWithInline = ctx.db.prepare<[string], FileRow & { inline_bytes: Buffer | null }>(
    'SELECT f.*, b.bytes AS inline_bytes FROM asset_files f LEFT JOIN inline_blobs b ON b.sha256 = f.sha256 WHERE f.id = ?',
  );
  const signed = (request: FastifyRequest, path: string): void => {
    ctx.signer.verify(path, request.query as Record<string, string | undefined>, []);
  };
  const loadFile = (fileId: string): FileRow => {
    const file = fileById.get(fileId);
    if (file === undefined) throw notFound('file', fileId);
    return file;
  };

  app.get('/files/:fileId/content', { config: { public: true } }, async (request, reply) => {
    const { fileId } = parseInput(fileParams, request.params, 'INVALID_PATH');
    signed(request, `/files/${fileId}/content`);
    const found = fileWithInline.get(fileId);
    if (found === undefined) throw notFound('file', fileId);
    const { inline_bytes: inlineBytes, ...file } = found;
    // A blob's file is opened lazily, for the bytes asked: a HEAD or a 416 never opens it.
    return sendRanged(request, reply, {
      size: file.size,
      etag: `"${file.checksum}"`,
      contentType: `${file.media_type}/${file.media_subtype}`,
      filename: file.filename,
      cacheControl: 'private, max-age=3600',
      open(start, end) {
        const source = blobs.sourceRead(file.sha256, inlineBytes);
        // `end` bounds each read buffer by what is left: without it every GET of a small file allocates
        // the whole 1 MiB highWaterMark, and thousands of small downloads spend their time in GC.
        return 'bytes' in source ? source.bytes.subarray(start, end + 1) : (createReadStream(source.path, { start, end, highWaterMark: 1 << 20 }) satisfies ReadStream);
      },
    });
  });

  app.get('/files/:fileId/renditions/:key', { config: { public: true } }, async (request, reply) => {
    const { fileId, key } = parseInput(renditionParams, request.params, 'INVALID_PATH');
    signed(request, `/files/${fileId}/renditions/${key}`);
    const file = loadFile(fileId);
    let row: TransformRow | undefined = transforms.get(key);
    if (row?.source_sha256 !== file.sha256) throw notFound('rendition of this file', key);
    const path = transforms.pathOf(row);
    const small = readSmall(path, row.size);
    if (small === undefined && statSync(path, { throwIfNoEntry: false })?.size !== row.size) {
      // Lost (a crash before it reached the disk, or removed by hand): render it again, the same way.
      const operations = JSON.parse(row.operations) as ResolvedOperation[];
      row = await transforms.ensure(file.sha256, () => blobs.source(file.sha256), operations, file.media_subtype, file.account_id).catch((error: unknown) => {
        throw new ServiceError('NOT_FOUND', 'The rendition is gone and cannot be made again; ask for a new download.', {}, { cause: error });
      });
    }
    const rendition = row;
    return sendRanged(request, reply, {
      size: rendition.size,
      etag: `"${rendition.checksum}"`,
      contentType: rendition.content_type,
      filename: renditionName(file.filename, rendition.extension),
      cacheControl: 'private, max-age=3600',
      // `small` is only set when the file was whole, so it is this rendition's bytes (never made again above).
      open: (start, end) => (small !== undefined ? small.subarray(start, end + 1) : createReadStream(transforms.pathOf(rendition), { start, end, highWaterMark: 1 << 20 })),
    });
  });
}

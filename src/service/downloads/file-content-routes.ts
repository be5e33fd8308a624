/**
 * The targets of signed download and preview URLs. No bearer token: the signature authorises the
 * request, so these must never serve anything the URL was not signed for. Downloads honour `Range`
 * (and `If-Range`) so interrupted downloads resume; previews are web-sized renditions of images,
 * rendered once and cached beside the blobs.
 */
import { createReadStream, existsSync, mkdirSync, renameSync, type ReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { FileRow } from '../assets/assets-repo.js';
import { parseByteRange } from './byte-range.js';

const fileParams = z.object({ fileId: z.uuid('is not a file id') });
const PREVIEW_SIZE = 1024;

/** Where the cached preview of a blob lives (the blob store removes it with the blob). */
export function previewPath(previewsDir: string, sha256: string): string {
  return join(previewsDir, `${sha256}.webp`);
}

export function registerFileContentRoutes(app: FastifyInstance, ctx: ServiceContext, blobs: BlobStore, previewsDir: string): void {
  const fileById = ctx.db.prepare<[string], FileRow>('SELECT * FROM asset_files WHERE id = ?');
  const signedFile = (request: FastifyRequest, kind: 'content' | 'preview'): FileRow => {
    const { fileId } = parseInput(fileParams, request.params, 'INVALID_PATH');
    ctx.signer.verify(`/files/${fileId}/${kind}`, request.query as Record<string, string | undefined>, []);
    const file = fileById.get(fileId);
    if (file === undefined) throw notFound('file', fileId);
    return file;
  };

  const content = async (request: FastifyRequest, reply: FastifyReply) => {
    const file = signedFile(request, 'content');
    const etag = `"${file.checksum}"`;
    const ifRange = request.headers['if-range'];
    const range = ifRange !== undefined && ifRange !== etag ? { kind: 'full' as const } : parseByteRange(request.headers.range, file.size);
    void reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .type(`${file.media_type}/${file.media_subtype}`);
    if (range.kind === 'unsatisfiable') {
      throw new ServiceError('RANGE_NOT_SATISFIABLE', `The file has ${file.size} bytes.`, { 'content-range': `bytes */${file.size}` });
    }
    const head = request.method === 'HEAD';
    const source = head ? undefined : blobs.source(file.sha256);
    // `end` bounds each read buffer by what is left: without it every GET of a small file allocates
    // the whole 1 MiB highWaterMark, and thousands of small downloads spend their time in GC.
    const body = (start: number, end: number): Buffer | ReadStream | undefined =>
      source === undefined ? undefined : 'bytes' in source ? source.bytes.subarray(start, end + 1) : createReadStream(source.path, { start, end, highWaterMark: 1 << 20 });
    if (range.kind === 'partial') {
      void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`).header('content-length', range.end - range.start + 1);
      return reply.send(body(range.start, range.end));
    }
    void reply.header('content-length', file.size);
    return reply.send(file.size === 0 ? undefined : body(0, file.size - 1));
  };
  app.get('/files/:fileId/content', { config: { public: true } }, content);

  mkdirSync(previewsDir, { recursive: true });
  app.get('/files/:fileId/preview', { config: { public: true } }, async (request, reply) => {
    const file = signedFile(request, 'preview');
    if (file.file_type !== 'IMAGE') throw new ServiceError('NOT_FOUND', 'Only images have previews.');
    const target = previewPath(previewsDir, file.sha256);
    if (!existsSync(target)) {
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      const source = blobs.source(file.sha256);
      await sharp('bytes' in source ? source.bytes : source.path, { failOn: 'none' })
        .rotate()
        .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toFile(temporary)
        .catch((error: unknown) => {
          throw new ServiceError('NOT_FOUND', 'This image cannot be previewed.', {}, { cause: error });
        });
      renameSync(temporary, target);
    }
    return reply.type('image/webp').header('cache-control', 'private, max-age=3600').send(createReadStream(target));
  });
}

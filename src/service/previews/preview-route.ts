/**
 * The target of signed preview URLs, `/previews/<sha256>.<extension>`: no bearer token, the signature
 * authorises the request, so it serves only the blob named. What it serves is preview-form.ts's call:
 * the file's own bytes under its own extension (an image browsers show as it is), else the WebP the
 * service renders (`.webp`). A URL handed out before originals were served (`.webp` for a JPEG) still
 * answers that rendition.
 *
 * `?size=N` [ours] asks for a sized variant: a WebP of at most the VARIANT_SIZES step at or below N
 * (the smallest when N is below it), made on first request and cached; a raster original already that
 * small is served as it is (an SVG's variant is always drawn: a thumbnail is a bounded raster image). It sits outside the signature (the signer ignores what it does not cover), so a
 * client adds it to the URL it was given, and a service that knows nothing of it serves the plain
 * preview. Everything here is content-addressed (the same URL is always the same bytes) and served
 * immutable. Each answer is sandboxed (`Content-Security-Policy: sandbox`, `nosniff`): an SVG opened
 * from its URL runs no script and reaches nothing of the service's origin.
 *
 * A rendered preview that could not be made answers `422 PREVIEW_FAILED` with why, for good; so does a
 * variant of an original that could not be made, while the original itself is still served.
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { FileRow } from '../assets/assets-repo.js';
import type { BlobSource, BlobStore } from '../blobs/blob-store.js';
import { sendRanged } from '../downloads/send-ranged.js';
import { ServiceError } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import { WEB_IMAGE_HEAD_BYTES } from '../../shared/api/web-image-type.js';
import { previewFailed } from './preview-failure.js';
import { PREVIEW_EXTENSIONS, looksLike, previewFormOf, variantSize, type PreviewForm } from './preview-form.js';
import type { PreviewMaker } from './preview-maker.js';

const previewParams = z.object({ name: z.string().regex(new RegExp(`^[0-9a-f]{64}\\.(${PREVIEW_EXTENSIONS.join('|')})$`), 'is not a preview name') });
/** `size` is the longer side asked for, px; the signature's own parameters are the signer's. */
const previewQuery = z.object({ size: z.coerce.number().int('is not a whole number').min(1).max(100_000).optional() });

/** A year: previews never change under their URL. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** The first bytes of a blob that say its type (fewer when it is shorter). */
function headOf(source: BlobSource): Uint8Array {
  if ('bytes' in source) return source.bytes.subarray(0, WEB_IMAGE_HEAD_BYTES);
  // Synchronous: 16 bytes from the page cache cost microseconds, a thread-pool trip waits behind every upload.
  const head = Buffer.alloc(WEB_IMAGE_HEAD_BYTES);
  let fd: number;
  try {
    fd = openSync(source.path, 'r');
  } catch {
    // The blob's file is missing: no original to serve (the rendition path says what can be said).
    return head.subarray(0, 0);
  }
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

export function registerPreviewRoute(app: FastifyInstance, ctx: ServiceContext, deps: { blobs: BlobStore; previews: PreviewMaker }): void {
  const { blobs, previews } = deps;
  // One row of the blob (with its bytes when they are kept inline); an image's first when the same
  // bytes are stored under other names too (an SVG also kept as .txt).
  const fileOfBlob = ctx.db.prepare<[string], FileRow & { inline_bytes: Buffer | null }>(
    "SELECT f.*, b.bytes AS inline_bytes FROM asset_files f LEFT JOIN inline_blobs b ON b.sha256 = f.sha256 WHERE f.sha256 = ? ORDER BY f.media_type = 'image' DESC LIMIT 1",
  );

  const sandboxed = (reply: FastifyReply): FastifyReply => reply.header('content-security-policy', 'sandbox').header('x-content-type-options', 'nosniff');

  const sendFile = (request: FastifyRequest, reply: FastifyReply, path: string | undefined, sha256: string, etag: string): FastifyReply => {
    if (path === undefined) {
      // A preview that could not be made says so, and why, for good: never a 404 that may yet change.
      const failure = previews.failureOf(sha256);
      if (failure !== undefined) throw previewFailed(failure);
      throw new ServiceError('NOT_FOUND', 'This file has no preview.');
    }
    return sendRanged(request, sandboxed(reply), {
      size: statSync(path).size,
      etag,
      contentType: 'image/webp',
      cacheControl: IMMUTABLE,
      open: (start, end) => createReadStream(path, { start, end }),
    });
  };

  const sendOriginal = (request: FastifyRequest, reply: FastifyReply, file: FileRow, source: BlobSource, form: PreviewForm & { form: 'original' }): FastifyReply =>
    sendRanged(request, sandboxed(reply), {
      size: file.size,
      etag: `"${file.checksum}"`,
      contentType: form.contentType,
      cacheControl: IMMUTABLE,
      open: (start, end) => ('bytes' in source ? source.bytes.subarray(start, end + 1) : createReadStream(source.path, { start, end, highWaterMark: 1 << 20 })),
    });

  app.get('/previews/:name', { config: { public: true } }, async (request, reply) => {
    const { name } = parseInput(previewParams, request.params, 'INVALID_PATH');
    ctx.signer.verify(`/previews/${name}`, request.query as Record<string, string | undefined>, []);
    const { size: asked } = parseInput(previewQuery, request.query, 'INVALID_QUERY');
    const sha256 = name.slice(0, 64);
    const extension = name.slice(65);
    const found = fileOfBlob.get(sha256);
    if (found === undefined) throw new ServiceError('NOT_FOUND', 'This file has no preview.');
    const { inline_bytes: inlineBytes, ...file } = found;
    const form = previewFormOf(file);
    const size = asked === undefined ? undefined : variantSize(asked);

    if (form?.form === 'original' && form.extension === extension) {
      const source = blobs.sourceRead(sha256, inlineBytes);
      // Bytes that are not what the name says (another format sharp reads) get the rendition instead.
      if (looksLike(form.extension, headOf(source))) {
        // A raster image already within the size is its own variant; an SVG's variant is always raster.
        const longer = Math.max(file.width ?? Infinity, file.height ?? Infinity);
        if (size === undefined || (longer <= size && form.extension !== 'svg')) return sendOriginal(request, reply, file, source, form);
        return sendFile(request, reply, await previews.ensureVariant(file, size), sha256, `"${sha256}-${size}"`);
      }
    } else if (extension !== 'webp') {
      throw new ServiceError('NOT_FOUND', 'This file has no preview.');
    }
    if (size !== undefined) return sendFile(request, reply, await previews.ensureVariant(file, size), sha256, `"${sha256}-${size}"`);
    return sendFile(request, reply, await previews.ensure(file), sha256, `"${sha256}-preview"`);
  });
}

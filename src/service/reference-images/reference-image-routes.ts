/**
 * Reference image uploads (SERVICE-SPEC §4.2, §2.10): `POST /reference-image-uploads` (no body) answers a
 * fresh `key` and a signed `url`; the client PUTs the image's bytes there (no bearer: the signature
 * authorises it, as for upload parts). The service keeps an image it can read (sharp: JPEG, PNG, WEBP,
 * AVIF, TIFF, GIF, SVG, HEIC where libvips has it), at most 20 MiB, once per key, under
 * `<data>/reference-images/<key>`; anything else is refused and nothing is kept. The file is written to
 * a temporary name and renamed, so a half-written image never sits under its key.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../data-dir/private-files.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadSharp } from '../media/load-sharp.js';
import { checkSvgExpansion } from '../render-cage/svg-expansion.js';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller } from '../http/request-auth.js';

export const MAX_REFERENCE_IMAGE_BYTES = 20 * 1024 * 1024;

const keyParams = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'is not a reference image key') });

interface ReferenceImageRow {
  key: string;
  account_id: string;
  size: number | null;
}

/** The body's bytes, refusing (413) as soon as they pass `limit` instead of buffering on. */
async function readLimited(request: FastifyRequest, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > limit) throw new ServiceError('PAYLOAD_TOO_LARGE', `A reference image is at most ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request.raw) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += bytes.length;
    if (total > limit) throw new ServiceError('PAYLOAD_TOO_LARGE', `A reference image is at most ${limit} bytes.`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

export function registerReferenceImageRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const dir = join(ctx.config.dataDir, 'reference-images');
  const insert = ctx.db.prepare('INSERT INTO reference_images (key, account_id, user_id, date_created) VALUES (?, ?, ?, ?)');
  const byKey = ctx.db.prepare<[string], ReferenceImageRow>('SELECT key, account_id, size FROM reference_images WHERE key = ?');
  const stored = ctx.db.prepare('UPDATE reference_images SET size = @size, media_type = @media_type, width = @width, height = @height, date_uploaded = @date_uploaded WHERE key = @key AND size IS NULL');

  app.post('/reference-image-uploads', async (request) => {
    const who = caller(request);
    const key = randomBytes(24).toString('base64url');
    insert.run(key, who.accountId, who.userId, ctx.nowIso());
    const { url } = ctx.signer.sign(`/reference-images/${key}`, {}, ctx.config.signedUrlTtl);
    return envelope({ key, url });
  });

  // The image bytes are read by the handler (bounded): no parser in this scope buffers them first.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => {
      done(null);
    });
    scope.put('/reference-images/:key', { config: { public: true, rawBody: true } }, async (request, reply) => {
      try {
        const { key } = parseInput(keyParams, request.params, 'INVALID_PATH');
        ctx.signer.verify(`/reference-images/${key}`, request.query as Record<string, string | undefined>, []);
        const row = byKey.get(key);
        if (row === undefined) throw notFound('reference image upload', key);
        if (row.size !== null) throw new ServiceError('REFERENCE_IMAGE_ALREADY_UPLOADED');
        const bytes = await readLimited(request, MAX_REFERENCE_IMAGE_BYTES);
        // Sizing an SVG walks every element its references expand to, on this process's thread pool.
        const svg = checkSvgExpansion(bytes);
        if (!svg.ok) throw new ServiceError('NOT_AN_IMAGE', `${svg.message} Send it as a raster image instead.`);
        const sharp = await loadSharp();
        const meta = await sharp(bytes)
          .metadata()
          .catch((error: unknown) => {
            throw new ServiceError('NOT_AN_IMAGE', undefined, {}, { cause: error });
          });
        makePrivateDir(dir);
        const temporary = join(dir, `${key}.partial`);
        writeFileSync(temporary, bytes, { mode: PRIVATE_FILE_MODE });
        const result = stored.run({ key, size: bytes.length, media_type: `image/${meta.format}`, width: meta.width, height: meta.height, date_uploaded: ctx.nowIso() });
        if (result.changes === 0) {
          rmSync(temporary, { force: true });
          throw new ServiceError('REFERENCE_IMAGE_ALREADY_UPLOADED');
        }
        renameSync(temporary, join(dir, key));
        return envelope({ key, size: bytes.length, contentType: `image/${meta.format}`, width: meta.width, height: meta.height });
      } catch (error) {
        // Unread body bytes would hold up the next request on this connection: close it.
        if (!request.raw.readableEnded) reply.header('connection', 'close');
        throw error;
      }
    });
  });
}

/**
 * Upload endpoints: `POST /asset-uploads` (one upload at once, also how a resume asks for fresh part
 * URLs), the signed part PUTs, and `POST /asset-upload-completions`. The batch-job variants are
 * registered as job kinds (upload-jobs.ts). The PUT of a one-part upload's part with
 * `Asset-Sync-Complete: ?1` also completes it and answers the completion's envelope [ours].
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_PARTS } from '../../shared/api/part-layout.js';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { permittedActions, requireAction } from '../auth/permissions.js';
import { uploadItemSchema } from './upload-items.js';
import type { ReceivedPart, UploadService } from './upload-service.js';

const completionBody = z.object({
  assetId: z.string().min(1).max(200),
  uploadId: z.string().min(1).max(200),
  parts: z
    .array(z.object({ partNumber: z.number().int().min(1).max(MAX_PARTS), eTag: z.string().min(1).max(200) }))
    .min(1)
    .max(MAX_PARTS),
});

/** [ours] A part PUT that asks to complete its (one-part) upload; echoed when it did. */
const COMPLETE_HEADER = 'asset-sync-complete';

const partParams = z.object({
  uploadId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not an upload id'),
  partNumber: z.coerce.number().int().min(1).max(MAX_PARTS),
});

export function registerUploadRoutes(app: FastifyInstance, ctx: ServiceContext, uploads: UploadService): void {
  app.post('/asset-uploads', { config: { body: uploadItemSchema } }, async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'UPLOAD');
    const item = parseBody(request, uploadItemSchema);
    const upload = ctx.db.transaction(() => uploads.createUpload(who, item))();
    return envelope(upload, permittedActions(who.role, 'ASSET', upload.assetId));
  });

  app.post('/asset-upload-completions', { config: { body: completionBody } }, async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'UPLOAD');
    const body = parseBody(request, completionBody);
    const asset = await uploads.complete(who, body);
    return envelope(asset, permittedActions(who.role, 'ASSET', asset.id));
  });

  // Part bytes are streamed by the handler: this scope has a catch-all parser that leaves the body
  // unread, and no JSON parser, so no part is ever buffered whole.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => {
      done(null);
    });
    scope.put('/upload-parts/:uploadId/:partNumber', { config: { public: true, rawBody: true } }, async (request, reply) => {
      let received: ReceivedPart;
      try {
        const { uploadId, partNumber } = parseInput(partParams, request.params, 'INVALID_PATH');
        const query = request.query as Record<string, string | undefined>;
        const bound = ctx.signer.verify(`/upload-parts/${uploadId}/${partNumber}`, query, ['md5']);
        received = await uploads.receivePart(
          uploadId,
          partNumber,
          request.raw,
          { contentLength: request.headers['content-length'], contentMd5: header(request.headers['content-md5']) },
          bound.md5,
          // [ours] The client asks this PUT to complete a one-part upload: one request instead of two.
          { complete: header(request.headers[COMPLETE_HEADER]) === '?1' },
        );
      } catch (error) {
        // A refused part can leave unread body bytes on the connection (a body abandoned half-way is
        // not drained), and the next request sent on it would wait behind them forever: close it.
        void reply.header('connection', 'close');
        throw error;
      }
      void reply.header('etag', `"${received.etag}"`).code(200);
      const done = received.completed;
      if (done === undefined) return reply.send();
      return reply.header(COMPLETE_HEADER, '?1').send(envelope(done.asset, permittedActions(done.caller.role, 'ASSET', done.asset.id)));
    });
  });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

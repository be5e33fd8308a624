/**
 * JSON and form bodies. An empty JSON body reads as "no body" (some clients send the header on DELETE);
 * malformed JSON becomes 400 INVALID_JSON with the parser's reason. Raw part uploads register their own
 * parser in an encapsulated scope (see uploads/upload-routes.ts), so these never buffer file bytes.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors/service-error.js';

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new ServiceError('INVALID_JSON', `The request body is not valid JSON: ${error instanceof Error ? error.message : 'parse error'}.`), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });
}

/**
 * Answers a GET or HEAD for a body of known size and identity (an original file, a rendition, a zip)
 * with `Range` and `If-Range` honoured, so an interrupted download resumes where it stopped, and with
 * `If-None-Match` for caches. The body is opened only for the bytes asked for, and only for a GET.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/service-error.js';
import { parseByteRange } from './byte-range.js';

export interface RangedBody {
  size: number;
  /** Quoted strong ETag. */
  etag: string;
  contentType: string;
  /** Offered as the attachment's name. */
  filename?: string;
  cacheControl: string;
  /** The bytes start..end (inclusive). */
  open(start: number, end: number): Readable | Buffer;
}

export function sendRanged(request: FastifyRequest, reply: FastifyReply, body: RangedBody): FastifyReply {
  void reply.header('accept-ranges', 'bytes').header('etag', body.etag).header('cache-control', body.cacheControl).type(body.contentType);
  if (body.filename !== undefined) void reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(body.filename)}`);
  if (request.headers['if-none-match'] === body.etag) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const range = ifRange !== undefined && ifRange !== body.etag ? { kind: 'full' as const } : parseByteRange(request.headers.range, body.size);
  if (range.kind === 'unsatisfiable') {
    throw new ServiceError('RANGE_NOT_SATISFIABLE', `The file has ${body.size} bytes.`, { 'content-range': `bytes */${body.size}` });
  }
  const head = request.method === 'HEAD';
  if (range.kind === 'partial') {
    void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${body.size}`).header('content-length', range.end - range.start + 1);
    return reply.send(head ? undefined : body.open(range.start, range.end));
  }
  void reply.header('content-length', body.size);
  return reply.send(head || body.size === 0 ? undefined : body.open(0, body.size - 1));
}

/**
 * A request to the in-process service whose answer is read while the service writes it (the change
 * feed's server-sent events): directRequest's stand-ins for node's request and response, except that
 * the response's bytes flow into a stream the caller reads as they are written. The stream stays open
 * while virtual time passes, so what the service pushes later (a change committed by another client's
 * request, a keep-alive or the end on its timers, which the simulation runs on its virtual clock)
 * reaches the reader as it happens. It ends when the service ends the answer, and fails when the
 * caller or a fault drops the connection; either way the service sees its response close, as behind a
 * socket.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { DirectRequest, DirectResponse } from './direct-request.js';

export interface DirectStream {
  status: number;
  headers: Record<string, string | undefined>;
  /** The answer's bytes as the service writes them; destroying it hangs up. */
  body: Readable;
  /** Drops the connection: the reader gets `error`, the service sees its response close. */
  drop(error: Error): void;
}

/** A response whose bytes go to `body` (nothing kept), and which says when its head is written. */
class StreamedResponse extends DirectResponse {
  readonly body: Readable;
  /** Each chunk as the service writes it, before the reader sees it. */
  onChunk: (chunk: Buffer) => void = () => undefined;
  onHead: () => void = () => undefined;

  constructor() {
    super();
    this.body = new Readable({
      read: () => undefined,
      // The reader hung up (or a fault dropped the connection): the service's response closes.
      destroy: (error, done) => {
        this.destroy();
        done(error);
      },
    });
    this.once('finish', () => this.body.push(null));
    this.once('close', () => {
      if (!this.writableFinished) this.body.destroy(new Error('the service closed the response before it ended'));
    });
  }

  override writeHead(statusCode: number, reason?: string | Record<string, string | number | readonly string[]>, more?: Record<string, string | number | readonly string[]>): this {
    super.writeHead(statusCode, reason, more);
    this.onHead();
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.headersSent = true;
    this.onHead();
    this.onChunk(chunk);
    this.body.push(chunk);
    done();
  }
}

/**
 * Opens one request through the service; resolves once the answer's head is written (with what the
 * service wrote in the same turn already in `body`), whatever its status.
 */
export function directStream(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, onChunk: (chunk: Buffer) => void): Promise<DirectStream> {
  const requestHeaders: Record<string, string> = { host: 'localhost:80', 'user-agent': 'asset-sync-simulation' };
  for (const [name, value] of Object.entries(headers)) requestHeaders[name.toLowerCase()] = value;
  const request = new DirectRequest(method, url, requestHeaders, undefined);
  const response = new StreamedResponse();
  response.onChunk = onChunk;
  return new Promise<DirectStream>((resolve, reject) => {
    let opened = false;
    response.onHead = () => {
      if (opened) return;
      opened = true;
      const flat: Record<string, string | undefined> = {};
      for (const [name, value] of response.headers) flat[name] = typeof value === 'object' ? value.join(', ') : String(value);
      resolve({ status: response.statusCode, headers: flat, body: response.body, drop: (error) => response.body.destroy(error) });
    };
    response.once('close', () => {
      if (!opened) reject(new Error(`${method} ${url}: the service closed the response before it answered`));
    });
    response.once('error', reject);
    // fastify declares node's http classes for `routing`; the stand-ins carry what it reads of them.
    Reflect.apply(app.routing.bind(app), undefined, [request, response]);
  });
}

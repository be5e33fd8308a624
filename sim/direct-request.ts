/**
 * Hands one request to the in-process service the way its HTTP server would: fastify's own entry for a
 * raw request (`app.routing`), so its routing, hooks, body parsers, validation, handlers and reply
 * serialization all run as they do behind a socket. Only the two node objects around it are light
 * stand-ins: a Readable request holding its whole body and a Writable response that collects status,
 * headers and bytes. light-my-request (fastify.inject) builds a full http.ServerResponse on a null
 * socket, renders the headers to text and parses them back, which cost about a tenth of a seed's CPU.
 */
import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export interface DirectAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

type HeaderValue = string | number | readonly string[];

/** What fastify reads of a request's socket: the peer's address, whether it is TLS, and events it listens to. */
class LoopbackSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly encrypted = false;
}

/** The request as node's HTTP server would hand it over: method, url, lower-cased headers, the body as a stream. */
export class DirectRequest extends Readable {
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly aborted = false;
  readonly socket = new LoopbackSocket();
  readonly rawHeaders: string[];

  constructor(
    readonly method: string,
    public url: string,
    readonly headers: Record<string, string>,
    body: Buffer | undefined,
  ) {
    // The body arrives on a later turn of the event loop, as from a socket (and as light-my-request
    // delivered it): the service's background jobs (setImmediate) get their turn before a request
    // with a body is handled, so seeds interleave jobs and calls as they always did.
    let sent = false;
    super({
      autoDestroy: false,
      read: () => {
        if (sent) return;
        sent = true;
        setImmediate(() => {
          if (body !== undefined && body.length > 0) this.push(body);
          this.push(null);
        });
      },
    });
    this.rawHeaders = Object.entries(headers).flat();
  }
}

/** The response: what fastify writes (writeHead, setHeader, write, end, a piped stream) is kept, nothing is sent. */
export class DirectResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly headers = new Map<string, HeaderValue>();
  readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.headersSent = true;
    this.chunks.push(chunk);
    done();
  }

  setHeader(name: string, value: HeaderValue): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.headers.get(name.toLowerCase());
  }

  getHeaders(): Record<string, HeaderValue> {
    return Object.fromEntries(this.headers);
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  writeHead(statusCode: number, reason?: string | Record<string, HeaderValue>, more?: Record<string, HeaderValue>): this {
    this.statusCode = statusCode;
    const given = typeof reason === 'object' ? reason : more;
    for (const [name, value] of Object.entries(given ?? {})) this.headers.set(name.toLowerCase(), value);
    this.headersSent = true;
    return this;
  }

  addTrailers(): void {}

  writeEarlyHints(): void {}
}

/** Runs one request through the service; rejects if the service destroyed the response before it ended (a reset). */
export function directRequest(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, payload?: string | Buffer): Promise<DirectAnswer> {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const requestHeaders: Record<string, string> = { host: 'localhost:80', 'user-agent': 'asset-sync-simulation' };
  for (const [name, value] of Object.entries(headers)) requestHeaders[name.toLowerCase()] = value;
  if (body !== undefined && requestHeaders['content-length'] === undefined) requestHeaders['content-length'] = String(body.length);
  const request = new DirectRequest(method, url, requestHeaders, body);
  const response = new DirectResponse();
  return new Promise<DirectAnswer>((resolve, reject) => {
    response.once('finish', () => {
      const flat: Record<string, string | undefined> = {};
      for (const [name, value] of response.headers) flat[name] = typeof value === 'object' ? value.join(', ') : String(value);
      resolve({ status: response.statusCode, headers: flat, body: Buffer.concat(response.chunks) });
    });
    response.once('close', () => {
      if (!response.writableFinished) reject(new Error(`${method} ${url}: the service closed the response before it ended`));
    });
    response.once('error', reject);
    // fastify declares node's http classes for `routing`; the stand-ins above carry what it reads of them.
    Reflect.apply(app.routing.bind(app), undefined, [request, response]);
  });
}

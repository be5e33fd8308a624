/**
 * An HTTP proxy on 127.0.0.1 in front of a test service, so a test can see what crossed the wire:
 * it forwards every request unchanged and counts the body bytes of part uploads (`PUT /upload-parts/…`)
 * it passed on. With `holdParts` set, part bodies beyond the first N stall part-way (the service gets
 * only their first bytes and never an end), which leaves a client with some parts confirmed and others
 * mid-flight for as long as the test needs — the moment to kill it. Start the service with `publicUrl: proxy.url` so the part
 * URLs it signs point here too.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestService } from './test-service.js';

export interface CountingProxy {
  url: string;
  /** Where requests go (the service's listening address, not its public URL); set once it is up. */
  target: string;
  /**
   * Body bytes of part PUTs begun since the last reset, forwarded (partial bodies included). A killed
   * client's bytes still in the sockets arrive after its death: counted, they went to the next run
   * when the test process was slow to read them (about 220 KiB, on a loaded machine).
   */
  partBytes: number;
  /** Requests of any kind forwarded since the proxy started (not reset): a client's sign of life. */
  requests: number;
  /** Requests forwarded since the proxy started, by method and first path segment (`PUT /upload-parts`). */
  routes: Map<string, number>;
  /** Part PUTs begun since the last reset that the service answered 200. */
  partsAnswered: number;
  /** Body bytes of those answered part PUTs (a part retried after a transport error counts once). */
  answeredPartBytes: number;
  /** When set: the first `passParts` part bodies pass whole, later ones stall after `stallAfterBytes`. */
  holdParts: { passParts: number; stallAfterBytes: number } | undefined;
  reset(): void;
  close(): Promise<void>;
}

const isPartPut = (request: IncomingMessage): boolean => request.method === 'PUT' && (request.url ?? '').startsWith('/upload-parts/');

export async function startCountingProxy(): Promise<CountingProxy> {
  let started = 0;
  /** Bumped by each reset: a request counts only while its own is the current one. */
  let generation = 0;
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    proxy.requests++;
    const route = `${incoming.method ?? '?'} /${(incoming.url ?? '/').split(/[/?]/)[1] ?? ''}`;
    proxy.routes.set(route, (proxy.routes.get(route) ?? 0) + 1);
    const mine = generation;
    const current = (): boolean => mine === generation;
    const target = new URL(incoming.url ?? '/', proxy.target);
    const upstream = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      if (isPartPut(incoming) && answer.statusCode === 200 && current()) {
        proxy.partsAnswered++;
        proxy.answeredPartBytes += Number(incoming.headers['content-length'] ?? 0);
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    // A client that dies mid-request must look the same to the service: an aborted request.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    if (!isPartPut(incoming)) {
      incoming.pipe(upstream);
      return;
    }
    const hold = proxy.holdParts;
    const stallAt = hold !== undefined && started++ >= hold.passParts ? hold.stallAfterBytes : Infinity;
    let sent = 0;
    incoming.on('data', (chunk: Buffer) => {
      const room = Math.max(0, stallAt - sent);
      const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
      sent += piece.length;
      if (current()) proxy.partBytes += piece.length;
      // Past the stall point bytes are read and dropped (reading on is what lets the proxy notice a
      // client that dies): the service waits for the rest of the part, the client for an answer.
      if (piece.length > 0 && !upstream.write(piece)) {
        incoming.pause();
        upstream.once('drain', () => incoming.resume());
      }
    });
    incoming.on('end', () => {
      if (sent < stallAt) upstream.end();
    });
  };
  const server = createServer(forward);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${port}`,
    target: '',
    partBytes: 0,
    requests: 0,
    routes: new Map(),
    partsAnswered: 0,
    answeredPartBytes: 0,
    holdParts: undefined,
    reset() {
      generation++;
      proxy.partBytes = 0;
      proxy.partsAnswered = 0;
      proxy.answeredPartBytes = 0;
      started = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

/** The address a test service really listens on (its `url` is the public URL, i.e. the proxy). */
export function listeningUrl(service: TestService): string {
  const address = service.running.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the service is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

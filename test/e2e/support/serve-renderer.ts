/**
 * Serves the built renderer (dist/renderer) on 127.0.0.1 at a random port, for the browser tests and
 * benches that drive the UI alone through the demo bridge (`?demo=<scenario>`). Static files only;
 * the caller closes it.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

export const rendererDir = fileURLToPath(new URL('../../../dist/renderer', import.meta.url));

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface ServedRenderer {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` (the built renderer by default); `extra` adds pages by path, e.g. a baseline page. */
export async function serveRenderer(options: { dir?: string; extra?: Record<string, string> } = {}): Promise<ServedRenderer> {
  const dir = options.dir ?? rendererDir;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const page = options.extra?.[path];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': types['.html'] });
      response.end(page);
      return;
    }
    const relative = normalize(path === '/' ? '/index.html' : path);
    if (relative.includes('..')) {
      response.writeHead(400).end();
      return;
    }
    readFile(join(dir, relative)).then(
      (body) => {
        response.writeHead(200, { 'content-type': types[extname(relative)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        response.end(body);
      },
      () => {
        response.writeHead(404).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

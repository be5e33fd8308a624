/**
 * The download baseline's peer: a bare Node HTTP server on 127.0.0.1 that streams `DIR/<name>` for
 * `GET /<name>` with its length, and nothing else (no auth, no signature, no database). Run as its own
 * process so it does not share an event loop with the client.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: raw-get-server DIR');

const server = createServer((request, response) => {
  void (async () => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    if (name.includes('/') || name.startsWith('.')) throw new Error('bad name');
    const path = join(dir, name);
    const info = await stat(path);
    response.writeHead(200, { 'content-length': info.size, 'content-type': 'application/octet-stream' });
    await pipeline(createReadStream(path), response);
  })().catch((error: unknown) => {
    if (!response.headersSent) response.writeHead(404).end(String(error));
    else response.destroy();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

/**
 * The baseline peer: a bare Node HTTP server on 127.0.0.1 that does the least a server receiving files
 * must do — stream each PUT body to disk while computing its MD5 (the ETag), sync it, answer — and
 * nothing else. Two modes: `raw-put-server FILE` writes every PUT into `FILE.<round>` at `?offset=N`
 * (one file per upload round, as the service keeps one per upload); `raw-put-server DIR/` (a path
 * ending in `/`) writes each PUT to a new file in DIR
 * (many small files). Run as its own process so it does not share an event loop with the client.
 */
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

const target = process.argv[2];
if (target === undefined) throw new Error('usage: raw-put-server FILE | DIR/');
const perFile = target.endsWith('/');
let received = 0;

const server = createServer((request, response) => {
  void (async () => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const offset = perFile ? 0 : Number(query.get('offset') ?? 0);
    const round = Number(query.get('round') ?? 0);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(round)) throw new Error('bad offset or round');
    const path = perFile ? join(target, `file-${received++}`) : `${target}.${round}`;
    const md5 = createHash('md5');
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | (perFile ? constants.O_EXCL : 0), 0o600);
    const hash = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        callback(null, chunk);
      },
    });
    // The stream closes the handle; `flush` syncs the bytes first, as the service does before it answers.
    await pipeline(request, hash, handle.createWriteStream({ start: offset, highWaterMark: 1 << 20, flush: true }));
    response.writeHead(200, { etag: `"${md5.digest('hex')}"` }).end();
  })().catch((error: unknown) => {
    response.writeHead(500).end(String(error));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

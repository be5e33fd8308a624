/**
 * The baseline peer for many small files: a bare Node HTTP server on 127.0.0.1 that streams each PUT
 * body to its own new file in a directory while computing its MD5 (the ETag), syncs it, and answers —
 * the least a server that receives files must do, and nothing else. The sibling of raw-put-server.ts
 * (one big file at offsets). Run as its own process so it does not share an event loop with the client.
 */
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: raw-files-server DIR');
let received = 0;

const server = createServer((request, response) => {
  void (async () => {
    const md5 = createHash('md5');
    const handle = await open(join(dir, `file-${received++}`), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    const hash = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        callback(null, chunk);
      },
    });
    // The stream closes the handle; `flush` syncs the bytes first, as the service does before it answers.
    await pipeline(request, hash, handle.createWriteStream({ highWaterMark: 1 << 20, flush: true }));
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

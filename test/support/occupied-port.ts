/**
 * Ports another program holds, for tests of what the app does on a busy port: a bare TCP server on
 * 127.0.0.1 per port, all closed by `releasePorts` (call it in afterEach).
 */
import { createServer, type Server } from 'node:net';

const held: Server[] = [];

/** Holds `port` (or any free one) and answers which. */
export async function occupiedPort(port = 0): Promise<number> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no port');
  return address.port;
}

/** Lets go of every port held so far. */
export async function releasePorts(): Promise<void> {
  await Promise.all(held.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
}

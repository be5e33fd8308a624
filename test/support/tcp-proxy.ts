/**
 * A TCP proxy on 127.0.0.1 (a free port) in front of a service, so a test can cut a client's
 * connections and refuse new ones ("the network is down") while the service itself stays up, then
 * let them through again. The test that starts one closes it.
 */
import { createServer, connect, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Destroys every open connection; new ones are dropped until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let down = false;
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      down = true;
      cutAll();
    },
    restore() {
      down = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

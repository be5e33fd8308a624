/**
 * A port the headless app needs is held by another program (often another Asset Sync). The app says
 * which port and which of its servers wanted it; the command that started it adds how to pick another.
 */

import { createServer } from 'node:net';

/** Which of the headless app's servers could not listen: the local library, or the browser UI. */
export type PortRole = 'library' | 'ui';

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  readonly code = 'PORT_IN_USE';

  constructor(
    readonly role: PortRole,
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(`Port ${port} on ${host} is in use (another Asset Sync, or another program).`, options);
  }
}

/** The listen failure as a PortInUseError when the address was taken; any other error as it is. */
export function asPortInUse(error: unknown, role: PortRole, fallback: { host: string; port: number }): unknown {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'EADDRINUSE') return error;
  const { address, port } = error as { address?: unknown; port?: unknown };
  return new PortInUseError(role, typeof address === 'string' ? address : fallback.host, typeof port === 'number' ? port : fallback.port, { cause: error });
}

/**
 * Resolves when `port` on `host` could be listened on now (it is let go at once), else rejects as
 * `asPortInUse` says: a server that takes long to load learns early that it will not get its port.
 * Port 0 is always free.
 */
export function probePort(role: PortRole, host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      const failure = asPortInUse(error, role, { host, port });
      reject(failure instanceof Error ? failure : error);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

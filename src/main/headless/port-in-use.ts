/**
 * A port the headless app needs is held by another program (often another Asset Sync). The app says
 * which port and which of its servers wanted it; the command that started it adds how to pick another.
 */

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

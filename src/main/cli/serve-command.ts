/** `asset-sync serve`: runs the asset service (API + authorisation server) until interrupted. */
import { resolve } from 'node:path';
import { startService } from '../../service/create-service.js';
import { DEFAULT_AUDIENCE, serviceConfig } from '../../service/config.js';
import { envValue, integerFlag, nonEmptyFlag, parseFlags, requiredFlag, urlFlag } from './parse-flags.js';
import type { CommandIo } from './command-io.js';

export const serveHelp = `Usage: asset-sync serve --data DIR [--port N] [--host 127.0.0.1] [--public-url URL]
                         [--admin-email E] [--admin-password P] [--audience A] [--no-refresh-rotation]

Runs the asset service: the API and its OAuth authorisation server on one origin.
  --data DIR             where the SQLite file and blobs live (created when missing)
  --port N               port to listen on (default 7480; 0 picks a free one)
  --host H               address to bind (default 127.0.0.1)
  --public-url URL       the address clients reach the service at (e.g. behind a reverse proxy);
                         every URL the service hands out is built from it
  --admin-email E        the admin user created on first start (default admin@localhost)
  --admin-password P     its password (or ASSET_SYNC_ADMIN_PASSWORD); generated and printed once otherwise
  --audience A           the token audience (default ${DEFAULT_AUDIENCE})
  --no-refresh-rotation  keep refresh tokens valid after use instead of rotating them`;

export async function serveCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('serve', args, {
    data: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    audience: { type: 'string' },
    'no-refresh-rotation': { type: 'boolean' },
  });
  if (values.help === true) {
    io.out(serveHelp);
    return 0;
  }
  const config = serviceConfig({
    dataDir: resolve(requiredFlag('serve', 'data', values.data)),
    port: integerFlag('port', values.port, 7480, 0, 65535),
    host: values.host ?? '127.0.0.1',
    publicUrl: urlFlag('public-url', values['public-url']),
    adminEmail: values['admin-email'] ?? 'admin@localhost',
    // Never an empty admin password: an empty variable means "generate one".
    adminPassword: nonEmptyFlag('admin-password', values['admin-password']) ?? envValue(io.env.ASSET_SYNC_ADMIN_PASSWORD),
    audience: values.audience ?? DEFAULT_AUDIENCE,
    rotateRefreshTokens: values['no-refresh-rotation'] !== true,
  });
  const service = await startService(config);
  if (service.bootstrap.generatedAdminPassword !== undefined) {
    io.out(`created admin ${config.adminEmail} with password ${service.bootstrap.generatedAdminPassword} (shown once; store it now)`);
  }
  io.out(`listening on ${service.url}`);
  await io.untilInterrupted();
  await service.close();
  return 0;
}

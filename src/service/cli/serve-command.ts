/** `asset-sync serve`: runs the asset service (API + authorisation server) until interrupted. */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { startService } from '../create-service.js';
import { DEFAULT_AUDIENCE, serviceConfig, type SmtpConfig } from '../config.js';
import { DEFAULT_RENDER_LIMITS } from '../render-cage/render-cage.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { envValue, integerFlag, nonEmptyFlag, parseFlags, portFlag, requiredFlag, urlFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const serveHelp = `Usage: asset-sync serve --data DIR [--port N] [--host 127.0.0.1] [--public-url URL] [--trust-proxy ADDRESSES]
                         [--admin-email E] [--admin-password P] [--audience A] [--no-refresh-rotation]
                         [--smtp-host H [--smtp-port N] [--smtp-secure] [--smtp-user U] [--smtp-password P]
                          [--smtp-from ADDRESS]] [--saved-search-interval SECONDS]
                         [--render-processes N] [--render-cpu-seconds S] [--render-wall-seconds S]
                         [--render-memory-mb M]

Runs the asset service: the API and its OAuth authorisation server on one origin.
  --data DIR             where the SQLite file and blobs live (created when missing)
  --port N               port to listen on (default 7480; 0 picks a free one)
  --host H               address to bind (default 127.0.0.1)
  --public-url URL       the address clients reach the service at (e.g. behind a reverse proxy);
                         every URL the service hands out is built from it
  --trust-proxy ADDRESSES  the reverse proxies in front of the service, comma-separated addresses or
                         CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8): their X-Forwarded-For names the client,
                         whose address sign-in throttles key on. Without it the header is ignored
  --admin-email E        the admin user created on first start (default admin@localhost)
  --admin-password P     its password (or ASSET_SYNC_ADMIN_PASSWORD); generated and printed once otherwise
  --audience A           the token audience (default ${DEFAULT_AUDIENCE})
  --no-refresh-rotation  keep refresh tokens valid after use instead of rotating them
  --smtp-host H          the SMTP server sign-up confirmations and saved-search e-mail updates go through
                         (or ASSET_SYNC_SMTP_HOST); without one, saved searches send no e-mail and
                         sign-up is refused
  --smtp-port N          its port (default 587, or 465 with --smtp-secure; or ASSET_SYNC_SMTP_PORT)
  --smtp-secure          TLS from the start (port 465); otherwise STARTTLS when the server offers it
  --smtp-user U          user name (or ASSET_SYNC_SMTP_USER); the password from --smtp-password or
                         ASSET_SYNC_SMTP_PASSWORD
  --smtp-from ADDRESS    the sender (or ASSET_SYNC_SMTP_FROM; default the admin e-mail)
  --saved-search-interval SECONDS  how often new assets are checked for e-mail updates (default 300)
  --render-processes N   processes previews and renditions of users' files are made in (default: the
                         cores, at most 4)
  --render-cpu-seconds S, --render-wall-seconds S, --render-memory-mb M
                         what one render may use before its process is killed and the file's preview
                         reads "could not be made" (defaults 20 s of processor time, 60 s, 1024 MiB)`;

type Env = Record<string, string | undefined>;

/** `--trust-proxy`: comma-separated IP addresses or CIDR ranges, each checked. */
export function proxyAddresses(value: string | undefined): string[] {
  if (value === undefined) return [];
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0) throw new CliError('USAGE', '--trust-proxy needs addresses or CIDR ranges, e.g. --trust-proxy 127.0.0.1,10.0.0.0/8.');
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new CliError('USAGE', `--trust-proxy: "${entry}" is not an IP address or CIDR range (such as 10.0.0.5 or 10.0.0.0/8).`);
    }
  }
  return entries;
}

/** The SMTP settings from flags, then the environment; undefined when no host is given anywhere. */
export function smtpFromFlags(values: Record<string, string | boolean | undefined>, env: Env, fallbackFrom: string): SmtpConfig | undefined {
  const text = (flag: string, variable: string): string | undefined => {
    const value = values[flag];
    return (typeof value === 'string' ? nonEmptyFlag(flag, value) : undefined) ?? envValue(env[variable]);
  };
  const host = text('smtp-host', 'ASSET_SYNC_SMTP_HOST');
  const secure = values['smtp-secure'] === true;
  if (host === undefined) {
    const stray = ['smtp-port', 'smtp-user', 'smtp-password', 'smtp-from', 'smtp-secure'].find((flag) => values[flag] !== undefined);
    if (stray !== undefined) throw new CliError('USAGE', `--${stray} needs --smtp-host (or ASSET_SYNC_SMTP_HOST).`);
    return undefined;
  }
  return {
    host,
    port: integerFlag('smtp-port', text('smtp-port', 'ASSET_SYNC_SMTP_PORT'), secure ? 465 : 587, 1, 65535),
    secure,
    user: text('smtp-user', 'ASSET_SYNC_SMTP_USER'),
    password: text('smtp-password', 'ASSET_SYNC_SMTP_PASSWORD'),
    from: text('smtp-from', 'ASSET_SYNC_SMTP_FROM') ?? fallbackFrom,
  };
}

export async function serveCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('serve', args, {
    data: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
    'trust-proxy': { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    audience: { type: 'string' },
    'no-refresh-rotation': { type: 'boolean' },
    'smtp-host': { type: 'string' },
    'smtp-port': { type: 'string' },
    'smtp-secure': { type: 'boolean' },
    'smtp-user': { type: 'string' },
    'smtp-password': { type: 'string' },
    'smtp-from': { type: 'string' },
    'saved-search-interval': { type: 'string' },
    'render-processes': { type: 'string' },
    'render-cpu-seconds': { type: 'string' },
    'render-wall-seconds': { type: 'string' },
    'render-memory-mb': { type: 'string' },
  });
  if (values.help === true) {
    io.out(serveHelp);
    return 0;
  }
  const config = serviceConfig({
    dataDir: resolve(requiredFlag('serve', 'data', values.data)),
    port: portFlag('port', values.port, 7480),
    host: values.host ?? '127.0.0.1',
    publicUrl: urlFlag('public-url', values['public-url']),
    trustedProxies: proxyAddresses(values['trust-proxy']),
    adminEmail: values['admin-email'] ?? 'admin@localhost',
    // Never an empty admin password: an empty variable means "generate one".
    adminPassword: nonEmptyFlag('admin-password', values['admin-password']) ?? envValue(io.env.ASSET_SYNC_ADMIN_PASSWORD),
    audience: values.audience ?? DEFAULT_AUDIENCE,
    rotateRefreshTokens: values['no-refresh-rotation'] !== true,
    smtp: smtpFromFlags(values, io.env, values['admin-email'] ?? 'admin@localhost'),
    savedSearchEmailInterval: integerFlag('saved-search-interval', values['saved-search-interval'], 300, 1, 7 * 24 * 3600),
    render: {
      processes: integerFlag('render-processes', values['render-processes'], DEFAULT_RENDER_LIMITS.processes, 1, 64),
      cpuMs: integerFlag('render-cpu-seconds', values['render-cpu-seconds'], DEFAULT_RENDER_LIMITS.cpuMs / 1000, 1, 3600) * 1000,
      wallMs: integerFlag('render-wall-seconds', values['render-wall-seconds'], DEFAULT_RENDER_LIMITS.wallMs / 1000, 1, 3600) * 1000,
      memoryMb: integerFlag('render-memory-mb', values['render-memory-mb'], DEFAULT_RENDER_LIMITS.memoryMb, 128, 65536),
    },
  });
  const service = await startService(config).catch((error: unknown) => {
    if ((error as { code?: unknown } | null)?.code !== 'EADDRINUSE') throw error;
    const next = config.port < 65535 ? config.port + 1 : config.port - 1;
    throw new CliError('PORT_IN_USE', `Port ${config.port} on ${config.host} is in use (another Asset Sync service, or another program). Start on another port with \`asset-sync serve --port ${next}\`, or stop the program using it.`);
  });
  if (service.bootstrap.generatedAdminPassword !== undefined) {
    io.out(`created admin ${config.adminEmail} with password ${service.bootstrap.generatedAdminPassword} (shown once; store it now)`);
  }
  const { database, blobs } = service.stores;
  io.out(`stores: SQLite database ${database.file}; blobs in directory ${blobs.dir}`);
  io.out(`listening on ${service.url}`);
  await io.untilInterrupted();
  await service.close();
  return 0;
}

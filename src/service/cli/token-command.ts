/** `asset-sync token`: prints a bearer token for a user of a local service's data directory, and nothing else. */
import { resolve } from 'node:path';
import { mintToken } from '../auth/mint-token.js';
import { integerFlag, parseFlags, requiredFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const tokenHelp = `Usage: asset-sync token --data DIR [--email E] [--ttl SECONDS]

Prints an access token for a user of the service whose data is in DIR (default user: the admin).
Use it as ASSET_SYNC_TOKEN or "Authorization: Bearer <token>".
  --ttl SECONDS   lifetime (default 3600, at most 30 days)`;

export async function tokenCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('token', args, { data: { type: 'string' }, email: { type: 'string' }, ttl: { type: 'string' } });
  if (values.help === true) {
    io.out(tokenHelp);
    return 0;
  }
  const token = await mintToken({
    dataDir: resolve(requiredFlag('token', 'data', values.data)),
    email: values.email,
    ttlSeconds: integerFlag('ttl', values.ttl, 3600, 1, 30 * 24 * 3600),
  });
  io.out(token);
  return 0;
}

/**
 * `asset-sync keys rotate`: replaces the signing keys of a stopped service's data directory (the key
 * file beside service.db). Run it when the keys may have been copied: a data directory that was open
 * to other users, a key file that left the machine. It takes the data directory's lock, so it is
 * refused while a service runs there (the running service holds the old keys in memory, and would go
 * on signing with them); it checks the directory as a start does, so an open one is refused first.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags, requiredFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { openDatabase } from '../db/open-database.js';
import { keyFileOf, rotateSigningKeys } from '../auth/signing-keys.js';
import { DATABASE_FILE, secureDataDir } from '../data-dir/secure-data-dir.js';
import { lockDataDir } from './data-dir-lock.js';
import { AdminError } from './admin-error.js';

export const keysHelp = `Usage: asset-sync keys rotate --data DIR

Replaces the signing keys of the service whose data is in DIR (stop it first). The keys live in
DIR/signing-keys.json (0600), not in service.db. After a rotation, access tokens issued before are
refused (401 TOKEN_KEY_RETIRED) and clients refresh them; signed part and download URLs and open
sign-in forms handed out before stop working. Refresh tokens and passwords are not affected.`;

const actions = ['rotate'] as const;

export async function keysCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('keys', args, { data: { type: 'string' } }, { positionals: 1 });
  if (values.help === true) {
    io.out(keysHelp);
    return 0;
  }
  const [action, ...extra] = positionals;
  if (!actions.some((name) => name === action) || extra.length > 0) {
    throw new CliError('USAGE', `${action === undefined ? 'an action is needed' : `unknown action "${[action, ...extra].join(' ')}"`}; use one of ${actions.join(', ')} (see \`asset-sync keys --help\`).`);
  }
  const dataDir = resolve(requiredFlag('keys rotate', 'data', values.data));
  // Never creates a data directory: a typo in --data must not make an empty installation.
  if (!existsSync(join(dataDir, DATABASE_FILE))) throw new AdminError('NO_DATA', `No service data in ${dataDir}: start it once with \`asset-sync serve --data ${dataDir}\`.`);
  secureDataDir(dataDir);
  const lock = lockDataDir(dataDir);
  try {
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      const { retired, current } = await rotateSigningKeys(dataDir, db);
      io.out(`new signing keys in ${keyFileOf(dataDir)} (key ${current.accessToken.kid}; retired ${retired.accessToken.kid}).`);
      io.out('Access tokens issued before are now refused (TOKEN_KEY_RETIRED) and clients refresh them; signed URLs handed out before no longer work.');
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
  return 0;
}

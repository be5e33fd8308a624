/**
 * The admin's "token for testing": mints an access token for a user straight from the data directory's
 * signing key, like the hosted service's test tokens. Used by `asset-sync token`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../db/open-database.js';
import { settingsRepo } from '../settings/settings-repo.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { loadAccessTokens } from './access-tokens.js';
import { systemClock } from '../clock.js';
import { DEFAULT_AUDIENCE } from '../config.js';
import { LOCAL_SUBDOMAIN } from '../bootstrap.js';

export class MintTokenError extends Error {
  override readonly name = 'MintTokenError';
  constructor(readonly code: 'NO_DATA' | 'NO_SUCH_USER' | 'NOT_A_MEMBER', message: string) {
    super(message);
  }
}

export interface MintTokenOptions {
  dataDir: string;
  /** Default: the account's first admin. */
  email?: string | undefined;
  ttlSeconds: number;
  audience?: string | undefined;
  subdomain?: string | undefined;
}

export async function mintToken(options: MintTokenOptions): Promise<string> {
  const file = join(options.dataDir, 'service.db');
  if (!existsSync(file)) {
    throw new MintTokenError('NO_DATA', `No service data in ${options.dataDir}: start it once with \`asset-sync serve --data ${options.dataDir}\`.`);
  }
  const db = openDatabase(file);
  try {
    const accounts = accountsRepo(db);
    const subdomain = options.subdomain ?? LOCAL_SUBDOMAIN;
    const account = accounts.bySubdomain(subdomain);
    if (account === undefined) throw new MintTokenError('NO_DATA', `No account "${subdomain}" in ${options.dataDir}.`);
    const userId =
      options.email === undefined
        ? db.prepare<[string], { user_id: string }>("SELECT user_id FROM memberships WHERE account_id = ? AND role = 'admin' ORDER BY rowid LIMIT 1").get(account.id)?.user_id
        : accounts.userByEmail(options.email)?.id;
    if (userId === undefined) throw new MintTokenError('NO_SUCH_USER', `No user ${options.email ?? '(admin)'} in ${options.dataDir}.`);
    if (accounts.membership(account.id, userId) === undefined) {
      throw new MintTokenError('NOT_A_MEMBER', `${options.email ?? 'That user'} is not a member of account "${subdomain}".`);
    }
    const tokens = await loadAccessTokens(settingsRepo(db), options.audience ?? DEFAULT_AUDIENCE, systemClock);
    return await tokens.issue({ sub: userId, scope: `subdomain:${subdomain}` }, options.ttlSeconds);
  } finally {
    db.close();
  }
}

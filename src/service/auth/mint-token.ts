/**
 * The admin's "token for testing": mints an access token for a user straight from the data directory's
 * signing key (the key file beside its database), like the hosted service's test tokens. Used by `asset-sync token`.
 */
import { settingsRepo } from '../settings/settings-repo.js';
import { loadAccessTokens } from './access-tokens.js';
import { noKeys, readSigningKeys } from './signing-keys.js';
import { sessionMembers } from './session-members.js';
import { systemClock } from '../clock.js';
import { DEFAULT_AUDIENCE } from '../config.js';
import { withDataDir } from '../cli/data-dir.js';
import { AdminError } from '../cli/admin-error.js';

export interface MintTokenOptions {
  dataDir: string;
  /** Default: the account's first admin. */
  email?: string | undefined;
  ttlSeconds: number;
  audience?: string | undefined;
  subdomain?: string | undefined;
}

export async function mintToken(options: MintTokenOptions): Promise<string> {
  return withDataDir(options.dataDir, options.subdomain, async ({ db, accounts, account }) => {
    const userId =
      options.email === undefined
        ? db.prepare<[string], { user_id: string }>("SELECT user_id FROM memberships WHERE account_id = ? AND role = 'admin' ORDER BY rowid LIMIT 1").get(account.id)?.user_id
        : accounts.userByEmail(options.email)?.id;
    if (userId === undefined) throw new AdminError('NO_SUCH_USER', `No user ${options.email ?? '(admin)'} in ${options.dataDir}.`);
    if (accounts.membership(account.id, userId) === undefined) {
      throw new AdminError('NOT_A_MEMBER', `${options.email ?? 'That user'} is not a member of account "${account.subdomain}".`);
    }
    const keys = readSigningKeys(options.dataDir);
    if (keys === undefined) throw noKeys(options.dataDir);
    const tokens = await loadAccessTokens(settingsRepo(db), keys, options.audience ?? DEFAULT_AUDIENCE, systemClock, sessionMembers(db).generationOf);
    return tokens.issue({ sub: userId, scope: `subdomain:${account.subdomain}` }, options.ttlSeconds);
  });
}

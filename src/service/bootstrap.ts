/**
 * First start: the `local` account with its built-in fields, the admin user and the public OAuth client
 * `asset-sync-desktop`. Idempotent: a restart on the same data changes nothing.
 */
import type { ServiceContext } from './context.js';
import { generatePassword, hashPassword } from './accounts/passwords.js';

export const LOCAL_SUBDOMAIN = 'local';
export const DESKTOP_CLIENT_ID = 'asset-sync-desktop';

export interface BootstrapReport {
  /** Set only when this start created the admin with a generated password, to be shown once. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

export async function bootstrap(ctx: ServiceContext): Promise<BootstrapReport> {
  const now = ctx.nowIso();
  const { config, accounts, fields, db } = ctx;
  const existing = accounts.bySubdomain(LOCAL_SUBDOMAIN);
  if (existing !== undefined) return { adminCreated: false };

  const password = config.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  db.transaction(() => {
    const account = accounts.createAccount(LOCAL_SUBDOMAIN, 'Local', now);
    fields.create(account.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' }, now);
    fields.create(account.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, indestructable: true, role: 'KEYWORDS' }, now);
    const admin = accounts.userByEmail(config.adminEmail) ?? accounts.createUser(config.adminEmail, 'Administrator', passwordHash, now);
    accounts.addMembership(account.id, admin.id, 'admin');
    db.prepare(
      `INSERT OR IGNORE INTO oauth_clients (client_id, account_id, name, client_secret, redirect_uris, allow_any_loopback_port, date_created)
       VALUES (?, NULL, 'Asset Sync desktop', NULL, ?, 1, ?)`,
    ).run(DESKTOP_CLIENT_ID, JSON.stringify(['http://127.0.0.1/callback', 'http://localhost/callback']), now);
  })();
  return config.adminPassword === undefined ? { adminCreated: true, generatedAdminPassword: password } : { adminCreated: true };
}

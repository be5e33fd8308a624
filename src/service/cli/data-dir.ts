/**
 * Opens a service data directory for an administration command and closes it afterwards. Safe while
 * the service runs on the same directory: SQLite in WAL mode with a busy timeout serialises writers.
 * Never creates a data directory: a typo in `--data` must not silently start an empty installation.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Db } from '../db/open-database.js';
import { accountsRepo, type AccountRow, type AccountsRepo } from '../accounts/accounts-repo.js';
import { LOCAL_SUBDOMAIN } from '../bootstrap.js';
import { AdminError } from './admin-error.js';

export interface DataDirSession {
  db: Db;
  accounts: AccountsRepo;
  account: AccountRow;
}

export async function withDataDir<T>(dataDir: string, subdomain: string | undefined, work: (session: DataDirSession) => Promise<T> | T): Promise<T> {
  const file = join(dataDir, 'service.db');
  if (!existsSync(file)) {
    throw new AdminError('NO_DATA', `No service data in ${dataDir}: start it once with \`asset-sync serve --data ${dataDir}\`.`);
  }
  const db = openDatabase(file);
  try {
    const accounts = accountsRepo(db);
    const name = subdomain ?? LOCAL_SUBDOMAIN;
    const account = accounts.bySubdomain(name);
    if (account === undefined) throw new AdminError('NO_DATA', `No account "${name}" in ${dataDir}.`);
    return await work({ db, accounts, account });
  } finally {
    db.close();
  }
}

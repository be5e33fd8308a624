/**
 * Everything a route group needs, built once by `createService` and passed in (no globals).
 * Route modules take this and register their endpoints on the app.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AccountsRepo } from './accounts/accounts-repo.js';
import type { AccessTokens } from './auth/access-tokens.js';
import type { Clock } from './clock.js';
import type { IdSource } from './db/time-ordered-id.js';
import type { ServiceConfig } from './config.js';
import type { Db } from './db/open-database.js';
import type { FieldsRepo } from './fields/fields-repo.js';
import type { FieldOptionsRepo } from './fields/field-options-repo.js';
import type { Settings } from './settings/settings-repo.js';
import type { UrlSigner } from './http/signed-urls.js';
import type { FolderPolicy } from './groups/folder-policy.js';
import type { SessionMembers } from './auth/session-members.js';
import type { SigningKeys } from './auth/signing-keys.js';
import type { HashingPool } from './accounts/hashing-pool.js';

export interface ServiceContext {
  readonly config: ServiceConfig;
  readonly db: Db;
  readonly clock: Clock;
  /** Row ids (ServiceDeps.ids): crypto-random in production, seeded in the simulation. */
  readonly ids: IdSource;
  readonly log: FastifyBaseLogger;
  readonly settings: Settings;
  readonly tokens: AccessTokens;
  /** The signing secrets, from the key file beside the database (auth/signing-keys.ts). */
  readonly keys: SigningKeys;
  readonly signer: UrlSigner;
  readonly accounts: AccountsRepo;
  readonly fields: FieldsRepo;
  readonly fieldOptions: FieldOptionsRepo;
  /** What folder limits let each caller see and change (groups/folder-policy.ts); every route asks it. */
  readonly folderPolicy: FolderPolicy;
  /** Who a user is in an account (member or staff) and the token generations (auth/session-members.ts). */
  readonly sessions: SessionMembers;
  /** The one gate every password and passcode hash a request starts goes through (accounts/hashing-pool.ts). */
  readonly hashing: HashingPool;
  /** The public base URL (no trailing slash); known once the server listens. */
  baseUrl(): string;
  /** Current time as ISO-8601 with milliseconds. */
  nowIso(): string;
}

/**
 * The registered OAuth clients (`oauth_clients`). Public clients (the desktop app) have no secret and
 * must use PKCE; confidential clients belong to one account (its custom integration) and authenticate
 * with their secret. The secret is stored as issued, so that `GET /custom-integration-settings` can read
 * it back as the hosted service does (API.md §2); the same database holds the token signing key, so
 * hashing it here would protect nothing that is not already exposed by a copy of the file.
 * This module only stores; it must never decide whether a client may do something.
 */
import { z } from 'zod';
import type { Db } from '../db/open-database.js';

export interface OAuthClient {
  clientId: string;
  /** The account a confidential client belongs to; null for installation-wide clients. */
  accountId: string | null;
  name: string;
  /** null for public clients. */
  clientSecret: string | null;
  redirectUris: string[];
  allowAnyLoopbackPort: boolean;
}

interface ClientRow {
  client_id: string;
  account_id: string | null;
  name: string;
  client_secret: string | null;
  redirect_uris: string;
  allow_any_loopback_port: number;
}

const storedUris = z.array(z.string());

function toClient(row: ClientRow): OAuthClient {
  let uris: unknown;
  try {
    uris = JSON.parse(row.redirect_uris);
  } catch {
    uris = [];
  }
  const parsed = storedUris.safeParse(uris);
  return {
    clientId: row.client_id,
    accountId: row.account_id,
    name: row.name,
    clientSecret: row.client_secret,
    // A damaged list allows no redirect at all rather than some arbitrary one.
    redirectUris: parsed.success ? parsed.data : [],
    allowAnyLoopbackPort: row.allow_any_loopback_port === 1,
  };
}

export function oauthClientsRepo(db: Db) {
  const columns = 'client_id, account_id, name, client_secret, redirect_uris, allow_any_loopback_port';
  const byId = db.prepare<[string], ClientRow>(`SELECT ${columns} FROM oauth_clients WHERE client_id = ?`);
  const confidentialOf = db.prepare<[string], ClientRow>(
    `SELECT ${columns} FROM oauth_clients WHERE account_id = ? AND client_secret IS NOT NULL ORDER BY date_created, rowid LIMIT 1`,
  );
  const insert = db.prepare(
    `INSERT INTO oauth_clients (client_id, account_id, name, client_secret, redirect_uris, allow_any_loopback_port, date_created)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateUris = db.prepare('UPDATE oauth_clients SET redirect_uris = ? WHERE client_id = ?');

  return {
    byId(clientId: string): OAuthClient | undefined {
      const row = byId.get(clientId);
      return row === undefined ? undefined : toClient(row);
    },
    /** The account's custom integration (its confidential client), if it has one. */
    confidentialOf(accountId: string): OAuthClient | undefined {
      const row = confidentialOf.get(accountId);
      return row === undefined ? undefined : toClient(row);
    },
    create(client: OAuthClient, now: string): void {
      insert.run(
        client.clientId,
        client.accountId,
        client.name,
        client.clientSecret,
        JSON.stringify(client.redirectUris),
        client.allowAnyLoopbackPort ? 1 : 0,
        now,
      );
    },
    setRedirectUris(clientId: string, redirectUris: readonly string[]): void {
      updateUris.run(JSON.stringify(redirectUris), clientId);
    },
  };
}

export type OAuthClientsRepo = ReturnType<typeof oauthClientsRepo>;

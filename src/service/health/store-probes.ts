/**
 * The probes `GET /health` runs against this instance's stores (store-health.ts). Each proves the store
 * answers the way the service uses it, cheaply enough to run every few seconds, and words a failure
 * without a path or a URL (the endpoint is public).
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Db } from '../db/open-database.js';
import type { StoreProbe } from './store-health.js';

/** Error with a stable code and a message fit for a public answer. */
class ProbeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The SQLite database answers a read of its schema (a page of the file, not only the connection). */
export function sqliteProbe(db: Db): StoreProbe {
  const read = db.prepare('SELECT count(*) AS n FROM sqlite_schema');
  return {
    kind: 'sqlite',
    check() {
      try {
        read.get();
        return Promise.resolve();
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        return Promise.reject(new ProbeError(typeof code === 'string' ? code : 'SQLITE_ERROR', `The database did not answer a read: ${error instanceof Error ? error.message : String(error)}`));
      }
    },
  };
}

/** A blob directory is there and writable (a read-only remount, a lost share or a wrong owner fail it). */
export function directoryProbe(root: string): StoreProbe {
  return {
    kind: 'directory',
    async check() {
      try {
        await access(root, constants.R_OK | constants.W_OK | constants.X_OK);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        throw new ProbeError(code, `The blob directory cannot be read and written (${code}).`);
      }
    },
  };
}

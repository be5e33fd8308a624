/** Installation-wide key/value settings (the token issuer, the change feed's epoch). Never a secret: those live in the key file (auth/signing-keys.ts). */
import type { Db } from '../db/open-database.js';

export interface Settings {
  get(key: string): string | undefined;
  setIfAbsent(key: string, value: string): void;
  getOrCreate(key: string, create: () => string): string;
}

export function settingsRepo(db: Db): Settings {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const insert = db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
  const get = (key: string): string | undefined => select.get(key)?.value;
  return {
    get,
    setIfAbsent: (key, value) => void insert.run(key, value),
    getOrCreate(key, create) {
      const existing = get(key);
      if (existing !== undefined) return existing;
      insert.run(key, create());
      return get(key) ?? '';
    },
  };
}

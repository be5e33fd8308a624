/** Sync roots: which local folder maps to which server and remote path, and whether it is stopped. */
import { randomUUID } from 'node:crypto';
import type { StateDb } from './open-state-db.js';

export interface RootRow {
  id: string;
  path: string;
  server: string;
  remote_path: string;
  publish_live: number;
  stopped: string | null;
  date_created: string;
}

export function rootsRepo(db: StateDb) {
  const all = db.prepare<[], RootRow>('SELECT * FROM roots ORDER BY path');
  const byPath = db.prepare<[string], RootRow>('SELECT * FROM roots WHERE path = ?');
  const byId = db.prepare<[string], RootRow>('SELECT * FROM roots WHERE id = ?');
  const insert = db.prepare('INSERT INTO roots (id, path, server, remote_path, publish_live, date_created) VALUES (@id, @path, @server, @remote_path, @publish_live, @date_created)');
  const update = db.prepare('UPDATE roots SET server = @server, remote_path = @remote_path, publish_live = @publish_live WHERE id = @id');
  // Only a different value is written: every pass sets it, and an unchanged database lets a root rest.
  const setStopped = db.prepare('UPDATE roots SET stopped = @reason WHERE id = @id AND stopped IS NOT @reason');
  // Every row of the root's state goes with it (ON DELETE CASCADE); nothing on disk or on the service.
  const remove = db.prepare<[string]>('DELETE FROM roots WHERE id = ?');
  const move = db.prepare('UPDATE roots SET path = @path, stopped = NULL WHERE id = @id');

  return {
    all: () => all.all(),
    byId: (id: string) => byId.get(id),
    byPath: (path: string) => byPath.get(path),
    /** Adds the root, or updates its settings when the path is known. */
    upsert(input: { path: string; server: string; remotePath: string; publishLive: boolean }, now: string): RootRow {
      const existing = byPath.get(input.path);
      const row: RootRow = {
        id: existing?.id ?? randomUUID(),
        path: input.path,
        server: input.server,
        remote_path: input.remotePath,
        publish_live: input.publishLive ? 1 : 0,
        stopped: existing?.stopped ?? null,
        date_created: existing?.date_created ?? now,
      };
      if (existing === undefined) insert.run(row);
      else update.run(row);
      return row;
    },
    /** Adds a root as it is given, id included (a folder carried into another account's state). */
    insertAs: (row: RootRow) => void insert.run(row),
    setStopped: (id: string, reason: string | null) => void setStopped.run({ reason, id }),
    /** Forgets the root and its whole state (`asset-sync folders remove`). */
    remove: (id: string) => void remove.run(id),
    /** Points the root at another folder (`asset-sync folders relink --to`), running again. */
    move: (id: string, path: string) => void move.run({ id, path }),
  };
}

export type RootsRepo = ReturnType<typeof rootsRepo>;

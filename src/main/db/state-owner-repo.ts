/** The state's owner row (migration 0010): the service and user the state was built against. */
import type { StateDb } from './open-state-db.js';

export interface StateOwnerRow {
  service: string;
  server: string;
  user_id: string | null;
}

export function stateOwnerRepo(db: StateDb) {
  const get = db.prepare<[], StateOwnerRow>('SELECT service, server, user_id FROM state_owner WHERE only_row = 1');
  const set = db.prepare<[StateOwnerRow]>(
    `INSERT INTO state_owner (only_row, service, server, user_id) VALUES (1, @service, @server, @user_id)
     ON CONFLICT (only_row) DO UPDATE SET service = excluded.service, server = excluded.server, user_id = excluded.user_id`,
  );
  return {
    get: (): StateOwnerRow | undefined => get.get(),
    set: (row: StateOwnerRow) => void set.run(row),
  };
}

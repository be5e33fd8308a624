/**
 * Whose sync state this is (db/state-owner-repo.ts): at most one row, the service and the user the
 * state was built against. A state without a row predates it, and is claimed by whoever opens it first
 * when its folders point at that same server.
 */
export default /* sql */ `
CREATE TABLE state_owner (
  only_row  INTEGER PRIMARY KEY CHECK (only_row = 1),
  service   TEXT NOT NULL,   -- 'local' for the built-in local library, else the server's base URL
  server    TEXT NOT NULL,   -- the base URL it answered at last
  user_id   TEXT             -- the signed-in user's id there; NULL until it is known
);
`;

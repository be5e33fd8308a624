/**
 * Staff sign-ins and token generations.
 *
 * - accounts.token_generation / users.token_generation: every access token carries the two numbers it
 *   was issued under; a security change of the account (allowed login methods, e-mail domains) or of
 *   the user (a new password) counts one up, and tokens of an older generation are refused. Both are
 *   read by the query that already loads the caller on every request, so the check costs no extra read.
 * - staff_sign_ins: each time a staff member starts a session in an account (the code exchange of a
 *   staff sign-in), kept for that account's admins to see. The e-mail is copied so the record outlives
 *   the user.
 */
export default /* sql */ `
ALTER TABLE accounts ADD COLUMN token_generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN token_generation INTEGER NOT NULL DEFAULT 0;

CREATE TABLE staff_sign_ins (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id        TEXT NOT NULL,
  email          TEXT NOT NULL,
  client_id      TEXT NOT NULL,
  date_signed_in TEXT NOT NULL
);
CREATE INDEX staff_sign_ins_account ON staff_sign_ins(account_id, date_signed_in);
`;

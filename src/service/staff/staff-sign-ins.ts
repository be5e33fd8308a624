/**
 * The record of staff sign-ins (staff_sign_ins): one row each time a staff member starts a session in
 * an account, written by the token endpoint in the same transaction that grants it, so a staff session
 * never exists without its record. The account's admins read it (staff-sign-in-routes.ts).
 */
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export interface StaffSignIn {
  id: string;
  userId: string;
  email: string;
  clientId: string;
  dateSignedIn: string;
}

export function staffSignIns(db: Db) {
  const insert = db.prepare('INSERT INTO staff_sign_ins (id, account_id, user_id, email, client_id, date_signed_in) VALUES (?, ?, ?, ?, ?, ?)');
  const page = db.prepare<[string, number, number], StaffSignIn>(
    `SELECT id, user_id AS userId, email, client_id AS clientId, date_signed_in AS dateSignedIn
       FROM staff_sign_ins WHERE account_id = ? ORDER BY date_signed_in DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM staff_sign_ins WHERE account_id = ?');
  return {
    record(accountId: string, signIn: Omit<StaffSignIn, 'id'>): void {
      insert.run(timeOrderedUuid(), accountId, signIn.userId, signIn.email, signIn.clientId, signIn.dateSignedIn);
    },
    /** Newest first. */
    page: (accountId: string, from: number, pageSize: number): StaffSignIn[] => page.all(accountId, pageSize, from),
    count: (accountId: string): number => count.get(accountId)?.n ?? 0,
  };
}

export type StaffSignIns = ReturnType<typeof staffSignIns>;

/**
 * Server-side state of scroll searches and the opaque scroll ids that point into them. A scroll row keeps
 * the caller, the criterion and sorts as sent, the page size and the total at the start; the scroll id
 * carries the row id and the keyset cursor of the last asset returned, signed (HMAC-SHA256 with an
 * installation secret) so it cannot be forged or edited. Sending an older id again repeats that page, so a
 * lost response can be retried. A scroll idle for SCROLL_IDLE_MS expires; unknown, foreign, tampered and
 * expired ids all answer 404 SCROLL_EXPIRED. Never runs a search itself.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cryptoIds, type IdSource } from '../db/time-ordered-id.js';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';
import type { Cursor } from './keyset.js';

export const SCROLL_IDLE_MS = 10 * 60 * 1000;

export interface ScrollRow {
  id: string;
  account_id: string;
  user_id: string;
  criterion: string;
  sorts: string;
  page_size: number;
  total_results: number;
  last_used_at: number;
}

export interface OpenScroll {
  row: ScrollRow;
  cursor: Cursor | undefined;
}

const tokenSchema = z.object({
  s: z.string().min(1).max(100),
  c: z.object({ values: z.array(z.union([z.string(), z.number(), z.null()])).max(20), id: z.string().max(200) }).nullable(),
});

const expired = (): ServiceError => new ServiceError('SCROLL_EXPIRED');

export function scrollStore(db: Db, clock: Clock, secret: string, ids: IdSource = cryptoIds()) {
  const insert = db.prepare(
    `INSERT INTO search_scrolls (id, account_id, user_id, criterion, sorts, page_size, total_results, last_used_at)
     VALUES (@id, @account_id, @user_id, @criterion, @sorts, @page_size, @total_results, @last_used_at)`,
  );
  const byId = db.prepare<[string], ScrollRow>('SELECT * FROM search_scrolls WHERE id = ?');
  const touch = db.prepare('UPDATE search_scrolls SET last_used_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM search_scrolls WHERE id = ?');
  const sweep = db.prepare('DELETE FROM search_scrolls WHERE last_used_at < ?');
  const mac = (payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();

  return {
    /** Starts a scroll (and forgets scrolls that have been idle too long). */
    create(scroll: Omit<ScrollRow, 'id' | 'last_used_at'>): ScrollRow {
      const now = clock.now();
      sweep.run(now - SCROLL_IDLE_MS);
      const row: ScrollRow = { ...scroll, id: ids.uuid(), last_used_at: now };
      insert.run(row);
      return row;
    },
    /** The opaque scroll id for continuing after `cursor`. */
    scrollId(row: ScrollRow, cursor: Cursor | undefined): string {
      const payload = Buffer.from(JSON.stringify({ s: row.id, c: cursor ?? null })).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    /** Resolves a scroll id sent by the caller and marks the scroll as used; 404 SCROLL_EXPIRED otherwise. */
    open(scrollId: string, accountId: string, userId: string): OpenScroll {
      const [payload = '', signature = ''] = scrollId.split('.');
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw expired();
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw expired();
      }
      const token = tokenSchema.safeParse(decoded);
      if (!token.success) throw expired();
      const row = byId.get(token.data.s);
      if (row?.account_id !== accountId || row.user_id !== userId) throw expired();
      const now = clock.now();
      if (row.last_used_at + SCROLL_IDLE_MS < now) {
        remove.run(row.id);
        throw expired();
      }
      touch.run(now, row.id);
      return { row: { ...row, last_used_at: now }, cursor: token.data.c ?? undefined };
    },
  };
}

export type ScrollStore = ReturnType<typeof scrollStore>;

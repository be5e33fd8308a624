/**
 * A session's synced folder by id, for the commands that act on one. Apart from engine-session.ts, which
 * is loaded only when a session opens, so the commands can be wired before the engine loads.
 */
import type { EngineSession } from './engine-session.js';
import { AppError } from './app-error.js';

/** The session's synced folder `folderId`; NOT_FOUND when it has none. */
export function rootOf(session: EngineSession, folderId: string): { id: string; path: string } {
  const row = session.engine.store.root(folderId);
  if (row === undefined) throw new AppError('NOT_FOUND', `There is no synced folder ${folderId}.`);
  return row;
}

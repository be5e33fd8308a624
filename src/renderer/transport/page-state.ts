/**
 * The state the page came with (initial-state.ts): the headless app's control server writes it into the
 * page, so the window shows the app before its first request. Undefined where the page has none (the
 * Electron window's file, the demo) or it cannot be read: the bridge's first state comes soon after.
 */
import type { AppState } from '../../shared/bridge/app-state.js';
import { INITIAL_STATE_ID } from '../../shared/bridge/initial-state.js';

/** What is read of the page (a Document). */
export interface PageElements {
  getElementById(id: string): { textContent: string | null } | null;
}

export function pageState(page: PageElements): AppState | undefined {
  const text = page.getElementById(INITIAL_STATE_ID)?.textContent;
  if (text === undefined || text === null || text === '') return undefined;
  try {
    const state = JSON.parse(text) as unknown;
    return typeof state === 'object' && state !== null && typeof (state as { revision?: unknown }).revision === 'number' ? (state as AppState) : undefined;
  } catch {
    return undefined;
  }
}

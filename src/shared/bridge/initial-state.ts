/**
 * The state a window's page carries from its first byte: the headless app's control server writes the
 * app's state into the page it serves, as a JSON data block (never run, so the CSP that refuses inline
 * scripts has nothing to refuse), and the renderer shows it before its first request. It is the state
 * `getState` would answer at that moment; the state that follows over the bridge replaces it.
 */
import type { AppState } from './app-state.js';

/** The id of the page's data block. */
export const INITIAL_STATE_ID = 'initial-state';

/**
 * The data block for `state`. `<` is written as its JSON escape, so no text in the state (a file
 * name with `</script>`) can end the block or open markup.
 */
export function initialStateBlock(state: AppState): string {
  return `<script type="application/json" id="${INITIAL_STATE_ID}">${JSON.stringify(state).replace(/</g, '\\u003c')}</script>`;
}

/**
 * Whether the window can reach the app, as its transport sees it. `up`: the app's events arrive.
 * `down`: the app does not answer (it stopped, or is starting again). `refused`: it answers but no
 * longer lets this page in (the page's session ended). The transport keeps trying in both, so the
 * window recovers by itself; until then it must not present the last state it had as the truth.
 * Electron's window lives inside the app, so its link is always up.
 */
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import type { AppState } from '../../shared/bridge/app-state.js';

export type LinkState = 'up' | 'down' | 'refused';

export interface AppLink {
  current(): LinkState;
  /** Told every change (not the current value); returns the unsubscribe function. */
  subscribe(listener: (state: LinkState) => void): () => void;
}

/** What the window talks to: the bridge, and whether it is reachable now. */
export interface Transport {
  bridge: AppBridge;
  link: AppLink;
  /** The state the page came with (page-state.ts), shown until the bridge's first. */
  initialState?: AppState;
}

/** A link the transport sets; listeners hear only real changes. */
export function createLink(initial: LinkState = 'up'): AppLink & { set(state: LinkState): void } {
  let state = initial;
  const listeners = new Set<(state: LinkState) => void>();
  return {
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener(next);
    },
  };
}

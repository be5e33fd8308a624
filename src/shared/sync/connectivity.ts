/**
 * Whether the engine can reach the service, as a closed set the displays render (the CLI's line
 * today, the desktop UI later). The engine reports a change of state, never each failed request: one
 * "unreachable" when the first request finds no service, one "reachable" when one gets an answer again.
 * A leaf file: no Node, DOM or Electron.
 */
export type Connectivity =
  /** Requests reach the service (whatever it answers). */
  | { state: 'reachable'; server: string }
  /** Requests do not get through; they wait and try again at `nextTryAt`. */
  | {
      state: 'unreachable';
      server: string;
      /** When the service was first found unreachable (epoch ms). */
      since: number;
      /** When requests next try (epoch ms); later tries back off to a fixed interval. */
      nextTryAt: number;
      /** Stable code of the last failure (`NETWORK`, `TIMEOUT`), for scripts and logs. */
      code: string;
      /** What failed, for logs (no token, no signed URL query). */
      detail: string;
    };

/** "Can't reach the service at URL — retrying (next try in 30 s)": one line for the whole condition. */
export function describeConnectivity(connectivity: Connectivity, now: number): string {
  if (connectivity.state === 'reachable') return `The service at ${connectivity.server} is reachable again.`;
  const seconds = Math.max(0, Math.ceil((connectivity.nextTryAt - now) / 1000));
  return `Can't reach the service at ${connectivity.server} — retrying (${seconds === 0 ? 'trying now' : `next try in ${seconds} s`})`;
}

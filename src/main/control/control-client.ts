/**
 * The CLI's side of the control server: while the app runs, `asset-sync status` and `conflicts` ask it
 * (it knows what only the running app knows: progress, pauses, offline) instead of reading the state
 * database. The app is found through app.json (app-file.ts) and used only when its process is alive
 * and its server answers, quickly; otherwise the commands fall back to the database as before.
 */
import type { AppState } from '../../shared/bridge/app-state.js';
import { isBridgeErrorData } from '../../shared/bridge/bridge-error.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import type { BridgeMethod } from '../../shared/bridge/app-bridge.js';
import { processAlive, readAppFile } from './app-file.js';
import { CLI_WINDOW_LINK } from './control-server.js';

export interface RunningAppClient {
  origin: string;
  call(method: BridgeMethod, body?: object): Promise<unknown>;
  getState(): Promise<AppState>;
  /** A new one-time link that opens the app's window in a browser. */
  windowLink(): Promise<string>;
}

export function controlClient(origin: string, cliKey: string, timeoutMs = 3000): RunningAppClient {
  const post = async (path: string, body: object = {}): Promise<unknown> => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cliKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await response.json()) as { result?: unknown; error?: unknown };
    if (response.ok) return answer.result;
    if (isBridgeErrorData(answer.error)) throw new BridgeError(answer.error.code, answer.error.message, answer.error.name);
    throw new BridgeError('INTERNAL', `The app answered ${response.status}.`);
  };
  const call = (method: BridgeMethod, body?: object): Promise<unknown> => post(`/api/${method}`, body);
  return {
    origin,
    call,
    getState: async () => (await call('getState')) as AppState,
    windowLink: async () => {
      const answer = await post(CLI_WINDOW_LINK);
      const url = typeof answer === 'object' && answer !== null && 'url' in answer ? answer.url : undefined;
      if (typeof url !== 'string' || !url.startsWith(`${origin}/?secret=`)) throw new BridgeError('INTERNAL', 'The app answered no window link.');
      return url;
    },
  };
}

/** The running app of this state directory, when there is one that answers; undefined otherwise. */
export async function findRunningApp(stateDir: string): Promise<{ client: RunningAppClient; state: AppState } | undefined> {
  const file = await readAppFile(stateDir);
  if (file === undefined || !processAlive(file.pid)) return undefined;
  const client = controlClient(file.origin, file.cliKey);
  try {
    return { client, state: await client.getState() };
  } catch {
    return undefined;
  }
}

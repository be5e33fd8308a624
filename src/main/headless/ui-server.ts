/**
 * The browser UI's control server at a lasting address, so a tab left open or bookmarked finds the app
 * again after a restart: the port and the session cookies' key come from the state dir (ui.json).
 * Rules: `--ui-port N` is used as given (PORT_IN_USE when taken; 0 picks a free one) and N becomes the
 * home port; without it the home port is asked for, and when another program holds it the UI takes a
 * free port for this run only and the caller says so. A state dir's first start asks for
 * DEFAULT_UI_PORT and keeps the port it got as its home.
 */
import { startControlServer, type ControlServer, type ControlTarget } from '../control/control-server.js';
import { newSecret } from '../control/request-guard.js';
import { keepUiAddress, readUiAddress } from '../control/ui-address.js';
import { asPortInUse, PortInUseError } from './port-in-use.js';

/** The browser UI's port on a state dir's first start (the local library's is 7480). */
export const DEFAULT_UI_PORT = 7470;

export interface UiServerOptions {
  stateDir: string;
  target: ControlTarget;
  staticDir: string;
  /** The port the user named (`--ui-port`): used or refused, never swapped for another. */
  port?: number;
  /** The port a state dir's first start asks for (default DEFAULT_UI_PORT; 0 = any free one). */
  firstPort?: number;
  /** Told when a window is opening, and when a window has been sent a state (control-server.ts). */
  onWindowOpened?: () => void;
  onStateSent?: () => void;
}

export interface UiServer {
  server: ControlServer;
  /** The home port, when another program held it and the UI is elsewhere for this run. */
  homeTaken: number | undefined;
}

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const kept = await readUiAddress(options.stateDir);
  const cookieKey = kept.cookieKey ?? newSecret();
  const listen = (port: number): Promise<ControlServer> =>
    startControlServer({
      target: options.target,
      staticDir: options.staticDir,
      port,
      cookieKey,
      ...(options.onWindowOpened === undefined ? {} : { onWindowOpened: options.onWindowOpened }),
      ...(options.onStateSent === undefined ? {} : { onStateSent: options.onStateSent }),
    }).catch((error: unknown) => {
      throw asPortInUse(error, 'ui', { host: '127.0.0.1', port });
    });

  let server: ControlServer;
  let homeTaken: number | undefined;
  if (options.port !== undefined) {
    server = await listen(options.port);
  } else {
    const home = kept.port ?? options.firstPort ?? DEFAULT_UI_PORT;
    try {
      server = await listen(home);
    } catch (error) {
      if (!(error instanceof PortInUseError) || home === 0) throw error;
      homeTaken = home;
      server = await listen(0);
    }
  }
  const home = options.port !== undefined && options.port !== 0 ? options.port : (kept.port ?? server.port);
  if (home !== kept.port || cookieKey !== kept.cookieKey) {
    try {
      await keepUiAddress(options.stateDir, { port: home, cookieKey });
    } catch (error) {
      await server.close();
      throw error;
    }
  }
  return { server, homeTaken };
}

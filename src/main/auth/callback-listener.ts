/**
 * The one-shot HTTP listener of the loopback sign-in (RFC 8252 §7.3): listens on 127.0.0.1 (an
 * ephemeral port, or the fixed one a hosted client registered), answers the browser's redirect to
 * `/callback` with a small page, and hands over the code once a request carries the expected `state`.
 * A request with another state is answered and ignored (it cannot end the sign-in in progress).
 * It must never listen beyond loopback, echo a code, or put anything unescaped into its pages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApiError } from '../api/index.js';
import { sendCallbackPage as page } from './callback-page.js';

export const CALLBACK_PATH = '/callback';

export interface CallbackListener {
  readonly port: number;
  /** `http://127.0.0.1:<port>/callback` */
  readonly redirectUri: string;
  /** Resolves with the code; rejects on an error answer, after `timeoutMs`, or when `signal` aborts. */
  waitForCode(timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** RFC 6749 `error` → our code, e.g. access_denied → OAUTH_ACCESS_DENIED. */
function oauthCode(error: string): string {
  const name = error.toUpperCase().replace(/[^A-Z0-9_]/g, '_').slice(0, 60);
  return `OAUTH_${name === '' ? 'ERROR' : name}`;
}

export async function startCallbackListener(expectedState: string, port = 0): Promise<CallbackListener> {
  let settle: { resolve(code: string): void; reject(error: ApiError): void } | undefined;
  let outcome: { code: string } | { error: ApiError } | undefined;
  const finish = (result: { code: string } | { error: ApiError }): void => {
    outcome ??= result;
    if (settle !== undefined) {
      if ('code' in outcome) settle.resolve(outcome.code);
      else settle.reject(outcome.error);
    }
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      page(response, 404, 'Not found', 'This address only receives the answer of an Asset Sync sign-in.');
      return;
    }
    const params = url.searchParams;
    if (params.get('state') !== expectedState || outcome !== undefined) {
      page(response, 400, 'Sign-in not recognised', 'This answer does not belong to the sign-in Asset Sync is waiting for. Start again from the application.');
      return;
    }
    const error = params.get('error');
    const code = params.get('code');
    if (error !== null || code === null || code === '') {
      const description = params.get('error_description') ?? 'The authorisation server sent no code.';
      page(response, 200, 'Sign-in did not complete', `${description} You can close this tab and try again from Asset Sync.`, 'failed');
      finish({ error: new ApiError({ code: oauthCode(error ?? 'invalid_response'), message: `Sign-in failed: ${description.slice(0, 300)}` }) });
      return;
    }
    page(response, 200, 'Signed in', 'Asset Sync is signed in. You can close this tab.', 'ok');
    finish({ code });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: Error & { code?: string }) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ApiError({ code: 'LOGIN_PORT_IN_USE', message: `Port ${port} on 127.0.0.1 is in use; close what uses it or configure another registered port.`, cause: error })
          : error,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the callback listener has no TCP address');
  const actualPort = address.port;

  return {
    port: actualPort,
    redirectUri: `http://127.0.0.1:${actualPort}${CALLBACK_PATH}`,
    waitForCode(timeoutMs, signal) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          finish({ error: new ApiError({ code: 'LOGIN_TIMEOUT', message: `No sign-in arrived within ${Math.round(timeoutMs / 1000)} s; run the sign-in again.` }) });
        }, timeoutMs);
        const onAbort = (): void => finish({ error: new ApiError({ code: 'ABORTED', message: 'The sign-in was cancelled.' }) });
        signal?.addEventListener('abort', onAbort, { once: true });
        const cleanUp = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        settle = {
          resolve: (code) => {
            cleanUp();
            resolve(code);
          },
          reject: (error) => {
            cleanUp();
            reject(error);
          },
        };
        if (signal?.aborted === true) onAbort();
        else if (outcome !== undefined) finish(outcome);
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Pages go out with `Connection: close`; a browser's idle pre-connection is dropped now,
        // anything still busy a second later too.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
    },
  };
}

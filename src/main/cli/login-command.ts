/** `asset-sync login` / `logout`: the loopback OAuth flow in the system browser, and forgetting the tokens. */
import { login, logout } from '../auth/index.js';
import { openInBrowser } from '../headless/open-browser.js';
import { integerFlag, parseFlags, requiredFlag, urlFlag } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const loginHelp = `Usage: asset-sync login --server URL [--state DIR] [--no-browser] [--subdomain S]
                        [--auth-server URL] [--client-id ID] [--client-secret S] [--port N]

Signs in through your browser (authorisation code + PKCE, redirect to a one-shot listener on
127.0.0.1) and keeps the tokens in the state directory (file mode 0600).
  --server URL       the asset service (e.g. http://127.0.0.1:7480 or https://api-v2.dash.app)
  --auth-server URL  its authorisation server when elsewhere (https://login.dash.app for the hosted service)
  --no-browser       print the sign-in URL instead of opening a browser
  --subdomain S      the account to sign in to (default local)
  --port N           a fixed callback port (the hosted service needs the one registered for the client)`;

export async function loginCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('login', args, {
    server: { type: 'string' },
    state: { type: 'string' },
    'no-browser': { type: 'boolean' },
    subdomain: { type: 'string' },
    'auth-server': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    port: { type: 'string' },
  });
  if (values.help === true) {
    io.out(loginHelp);
    return 0;
  }
  const server = urlFlag('server', requiredFlag('login', 'server', values.server)) ?? '';
  const authServer = urlFlag('auth-server', values['auth-server']);
  const stateDir = stateDirOf(values.state, io.env);
  const tokens = await login({
    server,
    stateDir,
    ...(authServer === undefined ? {} : { authServer }),
    ...(values.subdomain === undefined ? {} : { subdomain: values.subdomain }),
    ...(values['client-id'] === undefined ? {} : { clientId: values['client-id'] }),
    ...(values['client-secret'] === undefined ? {} : { clientSecret: values['client-secret'] }),
    port: integerFlag('port', values.port, 0, 0, 65535),
    env: io.env,
    openUrl: async (url) => {
      if (values['no-browser'] !== true && (await openInBrowser(url, { env: io.env }))) io.err('Opened your browser to sign in; waiting for it to finish…');
      else io.err(`${values['no-browser'] === true ? '' : 'Could not open a browser here. '}Open this address in a browser to sign in:\n  ${url}`);
    },
  });
  io.out(`signed in to ${tokens.server}${tokens.refreshToken === null ? ' (no refresh token: sign in again when the token expires)' : ''}`);
  return 0;
}

const signOutWords = {
  revoked: 'signed out: the service ended this sign-in',
  'not-offered': 'signed out on this computer; the service cannot end sign-ins, so the tokens it issued stay valid until they expire',
  failed: 'signed out on this computer; the sign-in stays valid on the service until it expires',
  nothing: 'signed out',
} as const;

export async function logoutCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('logout', args, { state: { type: 'string' } });
  if (values.help === true) {
    io.out('Usage: asset-sync logout [--state DIR]\n\nEnds the sign-in on the service (where it can) and forgets the stored tokens.');
    return 0;
  }
  const { signedOut, revocation } = await logout({ stateDir: stateDirOf(values.state, io.env), env: io.env });
  if (!signedOut) {
    io.out('was not signed in');
    return 0;
  }
  io.out(signOutWords[revocation.kind]);
  if (revocation.kind === 'failed') io.err(`The service could not be told (${revocation.reason}).`);
  return 0;
}

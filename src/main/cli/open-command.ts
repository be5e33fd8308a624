/**
 * `asset-sync open`: opens the running app's window in a browser. Each window link opens the window once
 * (control/request-guard.ts), so this asks the app for a new one with the CLI's key from app.json; the
 * link is printed only when no browser can be opened here, or with --print.
 */
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { stateDirOf } from '../headless/client-dirs.js';
import { openInBrowser } from '../headless/open-browser.js';
import { findRunningApp } from '../control/control-client.js';

export const openHelp = `Usage: asset-sync open [--state DIR] [--print]

Opens the window of the Asset Sync running in your browser (\`asset-sync start\`), with a new link:
each link opens the window once.
  --state DIR    the running app's state directory (default $XDG_STATE_HOME/asset-sync)
  --print        print the link instead of opening a browser (it works once)`;

export async function openCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('open', args, { state: { type: 'string' }, print: { type: 'boolean' } });
  if (values.help === true) {
    io.out(openHelp);
    return 0;
  }
  const stateDir = stateDirOf(values.state, io.env);
  const app = await findRunningApp(stateDir);
  if (app === undefined) {
    throw new CliError('NOT_FOUND', `Asset Sync is not running in a browser for ${stateDir}. Start it with \`asset-sync start\` (the desktop app has its own window).`);
  }
  const link = await app.client.windowLink();
  if (values.print !== true && (await openInBrowser(link))) {
    io.out(`Opened ${app.client.origin} in your browser.`);
    return 0;
  }
  io.out(link);
  io.err('Open this link in a browser on this computer: it opens Asset Sync once.');
  return 0;
}

/**
 * The `asset-sync` command: dispatches to one module per subcommand and turns their errors into a
 * message on stderr with a stable code and exit status (2 for usage errors).
 */
import { CliError } from './cli/cli-error.js';
import { processIo, type CommandIo } from './cli/command-io.js';
import { serveCommand } from './cli/serve-command.js';
import { tokenCommand } from './cli/token-command.js';
import { startCommand } from './cli/start-command.js';
import { userCommand } from './cli/user-command.js';
import { presetCommand } from './cli/preset-command.js';
import { groupCommand } from './cli/group-command.js';
import { downloadCommand } from './cli/download-command.js';
import { syncCommand } from './cli/sync-command.js';
import { statusCommand } from './cli/status-command.js';
import { confirmDeletesCommand } from './cli/confirm-deletes-command.js';
import { conflictsCommand, resolveCommand } from './cli/conflicts-command.js';
import { loginCommand, logoutCommand } from './cli/login-command.js';
import { foldersCommand } from './cli/folders-command.js';
import { isApiError } from './api/index.js';
import { SyncError } from './sync/sync-error.js';
import { AdminError } from '../service/admin/admin-error.js';

/** Codes that mean the command as typed cannot work: exit 2, like a usage error. */
const USAGE_CODES: ReadonlySet<string> = new Set(['INVALID_INPUT', 'INVALID_SERVER', 'SIGNED_IN_ELSEWHERE']);

type Command = (args: string[], io: CommandIo) => Promise<number>;

const commands: Record<string, { run: Command; summary: string }> = {
  sync: { run: syncCommand, summary: 'sync local folders with the service (--once for one pass)' },
  status: { run: statusCommand, summary: 'show synced folders, progress and files that could not sync' },
  'confirm-deletes': { run: confirmDeletesCommand, summary: 'let deletions held by the mass-delete guard go through' },
  folders: { run: foldersCommand, summary: 'list synced folders; remove one, or relink one a guard stopped' },
  conflicts: { run: conflictsCommand, summary: 'list files both sides changed, with both versions' },
  resolve: { run: resolveCommand, summary: 'resolve a conflict: --keep mine, theirs or both' },
  login: { run: loginCommand, summary: 'sign in to a service through your browser' },
  logout: { run: logoutCommand, summary: 'forget the stored sign-in' },
  start: { run: startCommand, summary: 'run Asset Sync: the desktop app, or the same app in your browser' },
  serve: { run: serveCommand, summary: 'run the asset service (API + OAuth) for a team or for tests' },
  token: { run: tokenCommand, summary: "print a bearer token for a user of a local service's data" },
  user: { run: userCommand, summary: "manage a local service's users: add, list, set-role, set-password, remove" },
  preset: { run: presetCommand, summary: "manage a local service's download presets: add, list, remove" },
  group: { run: groupCommand, summary: "manage a local service's user groups and their folder limits: add, list, set, remove" },
  download: { run: downloadCommand, summary: 'download assets by id or search, as they are, through a preset or zipped' },
};

const usage = `Usage: asset-sync <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, { summary }]) => `  ${name.padEnd(16)} ${summary}`)
  .join('\n')}

Run \`asset-sync <command> --help\` for a command's options.`;

export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(usage);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  try {
    if (command === undefined) throw new CliError('USAGE', `unknown command "${name}".\n${usage}`);
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`asset-sync: ${error.message} [${error.code}]`);
      return error.exitCode;
    }
    if (isApiError(error, 'NOT_SIGNED_IN')) {
      io.err(`asset-sync: ${error.message} Sign in with \`asset-sync login --server URL\`, or set ASSET_SYNC_TOKEN. [NOT_SIGNED_IN]`);
      return 1;
    }
    if (error instanceof AdminError || error instanceof SyncError || isApiError(error)) {
      io.err(`asset-sync: ${error.message} [${error.code}]`);
      return USAGE_CODES.has(error.code) ? 2 : 1;
    }
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'FAILED';
    io.err(`asset-sync: ${error instanceof Error ? error.message : String(error)} [${code}]`);
    return 1;
  }
}

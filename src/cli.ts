/**
 * The `asset-sync` command, the CLI process's one composition root: dispatches to the client's commands
 * (src/main/cli/) and the service's (src/service/cli/), and turns their errors into a message on stderr
 * with a stable code and exit status (2 for usage errors).
 */
import { CliError } from './platform/cli/cli-error.js';
import { processIo, type CommandIo } from './platform/cli/command-io.js';
import type { Command } from './platform/cli/command.js';
import { CLIENT_COMMANDS } from './main/cli/client-commands.js';
import { SERVICE_COMMANDS } from './service/cli/service-commands.js';
import { SyncError } from './main/model/sync-error.js';
import { AdminError } from './service/cli/admin-error.js';

/** Codes that mean the command as typed cannot work: exit 2, like a usage error. */
const USAGE_CODES: ReadonlySet<string> = new Set(['INVALID_INPUT', 'INVALID_SERVER', 'SIGNED_IN_ELSEWHERE', 'FOLDERS_OVERLAP', 'REMAP_CHOICE_NEEDED']);

/** The client's commands first, then the service's: the order `asset-sync help` lists them in. */
const commands: Readonly<Record<string, Command>> = { ...CLIENT_COMMANDS, ...SERVICE_COMMANDS };

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
    // The API client's module is loaded only to tell its errors apart: `asset-sync --help` never needs it.
    const { isApiError } = await import('./main/api/index.js');
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

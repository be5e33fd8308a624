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
import { AdminError } from '../service/admin/admin-error.js';

type Command = (args: string[], io: CommandIo) => Promise<number>;

const commands: Record<string, { run: Command; summary: string }> = {
  start: { run: startCommand, summary: 'run Asset Sync (today: the embedded local service)' },
  serve: { run: serveCommand, summary: 'run the asset service (API + OAuth) for a team or for tests' },
  token: { run: tokenCommand, summary: "print a bearer token for a user of a local service's data" },
  user: { run: userCommand, summary: "manage a local service's users: add, list, set-role, set-password, remove" },
};

const usage = `Usage: asset-sync <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, { summary }]) => `  ${name.padEnd(8)} ${summary}`)
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
    if (error instanceof AdminError) {
      io.err(`asset-sync: ${error.message} [${error.code}]`);
      return error.code === 'INVALID_INPUT' ? 2 : 1;
    }
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'FAILED';
    io.err(`asset-sync: ${error instanceof Error ? error.message : String(error)} [${code}]`);
    return 1;
  }
}

/** The asset service's subcommands of `asset-sync`: run it, and administer a local service's data directory. */
import type { Command } from '../../platform/cli/command.js';
import { serveCommand } from './serve-command.js';
import { tokenCommand } from './token-command.js';
import { userCommand } from './user-command.js';
import { presetCommand } from './preset-command.js';
import { groupCommand } from './group-command.js';
import { keysCommand } from './keys-command.js';

export const SERVICE_COMMANDS: Readonly<Record<string, Command>> = {
  serve: { run: serveCommand, summary: 'run the asset service (API + OAuth) for a team or for tests' },
  token: { run: tokenCommand, summary: "print a bearer token for a user of a local service's data" },
  user: { run: userCommand, summary: "manage a local service's users: add, list, set-role, set-password, remove" },
  preset: { run: presetCommand, summary: "manage a local service's download presets: add, list, remove" },
  keys: { run: keysCommand, summary: "rotate a stopped local service's signing keys (the key file beside its database)" },
  group: { run: groupCommand, summary: "manage a local service's user groups and their folder limits: add, list, set, remove" },
};

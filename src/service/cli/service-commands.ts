/** The asset service's subcommands of `asset-sync`: run it, and administer a local service's data directory. */
import { lazyCommand, type Command } from '../../platform/cli/command.js';

export const SERVICE_COMMANDS: Readonly<Record<string, Command>> = {
  serve: lazyCommand(() => import('./serve-command.js'), (module) => module.serveCommand, 'run the asset service (API + OAuth) for a team or for tests'),
  token: lazyCommand(() => import('./token-command.js'), (module) => module.tokenCommand, "print a bearer token for a user of a local service's data"),
  user: lazyCommand(() => import('./user-command.js'), (module) => module.userCommand, "manage a local service's users: add, list, set-role, set-password, remove"),
  preset: lazyCommand(() => import('./preset-command.js'), (module) => module.presetCommand, "manage a local service's download presets: add, list, remove"),
  keys: lazyCommand(() => import('./keys-command.js'), (module) => module.keysCommand, "rotate a stopped local service's signing keys (the key file beside its database)"),
  group: lazyCommand(() => import('./group-command.js'), (module) => module.groupCommand, "manage a local service's user groups and their folder limits: add, list, set, remove"),
};

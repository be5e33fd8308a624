/** The desktop client's subcommands of `asset-sync` (the service's are in src/service/cli/). */
import type { Command } from '../../platform/cli/command.js';
import { startCommand } from './start-command.js';
import { downloadCommand } from './download-command.js';
import { syncCommand } from './sync-command.js';
import { statusCommand } from './status-command.js';
import { confirmDeletesCommand } from './confirm-deletes-command.js';
import { conflictsCommand, resolveCommand } from './conflicts-command.js';
import { loginCommand, logoutCommand } from './login-command.js';
import { foldersCommand } from './folders-command.js';
import { openCommand } from './open-command.js';

export const CLIENT_COMMANDS: Readonly<Record<string, Command>> = {
  sync: { run: syncCommand, summary: 'sync local folders with the service (--once for one pass)' },
  status: { run: statusCommand, summary: 'show synced folders, progress and files that could not sync' },
  'confirm-deletes': { run: confirmDeletesCommand, summary: 'let deletions held by the mass-delete guard go through' },
  folders: { run: foldersCommand, summary: 'list synced folders; remove one, or relink one a guard stopped' },
  conflicts: { run: conflictsCommand, summary: 'list files both sides changed, with both versions' },
  resolve: { run: resolveCommand, summary: 'resolve a conflict: --keep mine, theirs or both' },
  login: { run: loginCommand, summary: 'sign in to a service through your browser' },
  logout: { run: logoutCommand, summary: 'forget the stored sign-in' },
  start: { run: startCommand, summary: 'run Asset Sync: the desktop app, or the same app in your browser' },
  open: { run: openCommand, summary: "open the running app's window in your browser (a new one-time link)" },
  download: { run: downloadCommand, summary: 'download assets by id or search, as they are, through a preset or zipped' },
};

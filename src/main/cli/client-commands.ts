/** The desktop client's subcommands of `asset-sync` (the service's are in src/service/cli/). */
import { lazyCommand, type Command } from '../../platform/cli/command.js';

export const CLIENT_COMMANDS: Readonly<Record<string, Command>> = {
  sync: lazyCommand(() => import('./sync-command.js'), (module) => module.syncCommand, 'sync local folders with the service (--once for one pass)'),
  status: lazyCommand(() => import('./status-command.js'), (module) => module.statusCommand, 'show synced folders, progress and files that could not sync'),
  'confirm-deletes': lazyCommand(() => import('./confirm-deletes-command.js'), (module) => module.confirmDeletesCommand, 'let deletions held by the mass-delete guard go through'),
  folders: lazyCommand(() => import('./folders-command.js'), (module) => module.foldersCommand, 'list synced folders; remove one, or relink one a guard stopped'),
  conflicts: lazyCommand(() => import('./conflicts-command.js'), (module) => module.conflictsCommand, 'list files both sides changed, with both versions'),
  resolve: lazyCommand(() => import('./conflicts-command.js'), (module) => module.resolveCommand, 'resolve a conflict: --keep mine, theirs or both'),
  login: lazyCommand(() => import('./login-command.js'), (module) => module.loginCommand, 'sign in to a service through your browser'),
  logout: lazyCommand(() => import('./login-command.js'), (module) => module.logoutCommand, 'forget the stored sign-in'),
  start: lazyCommand(() => import('./start-command.js'), (module) => module.startCommand, 'run Asset Sync: the desktop app, or the same app in your browser'),
  open: lazyCommand(() => import('./open-command.js'), (module) => module.openCommand, "open the running app's window in your browser (a new one-time link)"),
  download: lazyCommand(() => import('./download-command.js'), (module) => module.downloadCommand, 'download assets by id or search, as they are, through a preset or zipped'),
};

/**
 * What the terminal that runs the headless app says while it runs, besides its start: the moment the
 * service goes away and comes back, conflicts, held deletions, files that cannot sync and a sign-in
 * needed — one line each, in the window's words, naming where to act. The window stays the place to
 * act; the terminal is where a user who started `npm start` looks first.
 */
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AppState } from '../../shared/bridge/app-state.js';

const count = (value: number, one: string, many = `${one}s`): string => `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;

const folderName = (state: AppState | undefined, folderId: string): string => {
  const path = state?.folders.find((folder) => folder.id === folderId)?.path;
  return path === undefined ? 'a synced folder' : `“${path.split(/[\\/]/).filter((part) => part !== '').at(-1) ?? path}”`;
};

export class TerminalNews {
  private last: AppState | undefined;

  /** The lines `event` gives the terminal (none for most). */
  lines(event: AppEvent): string[] {
    switch (event.type) {
      case 'state': {
        const before = this.last?.connection.kind;
        this.last = event.state;
        const now = event.state.connection;
        if (before === 'online' && now.kind === 'offline') return [`Offline: ${now.server} cannot be reached (${now.error.message}). Changes wait here and go once it is back.`];
        if (before === 'offline' && now.kind === 'online') return ['Back online: catching up with what waited.'];
        return [];
      }
      case 'conflicts': {
        const [first] = event.conflicts;
        if (first === undefined) return [];
        const more = event.conflicts.length - 1;
        return [`${count(event.conflicts.length, 'conflict')}: ${first.relPath}${more > 0 ? ` and ${count(more, 'other')}` : ''} changed on both sides. Choose which to keep under Conflicts in the window.`];
      }
      case 'held-deletions': {
        const { held } = event;
        if (held.count === 0) return [];
        const sides = [held.deletedOnComputer > 0 ? `${held.deletedOnComputer.toLocaleString('en-US')} deleted on this computer` : '', held.deletedInService > 0 ? `${held.deletedInService.toLocaleString('en-US')} deleted in the service` : ''].filter((side) => side !== '');
        return [`${count(held.count, 'deletion')} held in ${folderName(this.last, held.folderId)} (${sides.join(', ')}): nothing is deleted until you confirm or restore them under Held deletions in the window.`];
      }
      case 'not-synced':
        return event.items.length === 0 ? [] : [`${count(event.items.length, 'file')} could not sync (${event.total.toLocaleString('en-US')} in all): the reasons and what to do are under Not synced in the window.`];
      case 'sign-in-needed':
        return [`Sign in to ${event.server} again: syncing waits until you do (Settings in the window).`];
      default:
        return [];
    }
  }
}

/**
 * Native notifications without the noise: events that call for the user (a new conflict, files that
 * cannot sync, held deletions, sign-in needed) are collected for a short window (2 s) from the first
 * one, then shown as at most one notification per kind, with counts, never one per file. Each notice
 * names the window route that shows it (agreed with the renderer in TEAM-NOTES.md). Pure apart from
 * the injected timer, so it is unit-tested without Electron.
 */
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { WindowRoute } from './tray-menu.js';

export type NoticeKind = 'conflicts' | 'not-synced' | 'held-deletions' | 'sign-in-needed';

export interface Notice {
  kind: NoticeKind;
  title: string;
  body: string;
  /** Where a click on the notification opens the window. */
  route: WindowRoute;
}

/** Runs `run` after `ms`; answers the cancel function. */
export type Schedule = (run: () => void, ms: number) => () => void;

export interface NotificationBatcherOptions {
  show(notice: Notice): void;
  /** The user's "notifications" setting, read at flush time. */
  enabled(): boolean;
  schedule: Schedule;
  /** How long to collect before showing (default 2,000 ms). */
  windowMs?: number;
}

interface Pending {
  conflicts: number;
  conflictNames: string[];
  notSynced: number;
  notSyncedReasons: string[];
  heldDeletions: number;
  heldOnComputer: number;
  heldInService: number;
  heldFolders: number;
  signInServer: string | null;
}

const empty = (): Pending => ({ conflicts: 0, conflictNames: [], notSynced: 0, notSyncedReasons: [], heldDeletions: 0, heldOnComputer: 0, heldInService: 0, heldFolders: 0, signInServer: null });

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

/** Where the held deletions happened, and what confirming them would do on the other side. */
function heldBody(pending: Pending): string {
  const folders = pending.heldFolders > 1 ? `, in ${plural(pending.heldFolders, 'folder')}` : '';
  const they = pending.heldDeletions === 1 ? 'It was' : 'They were';
  const them = pending.heldDeletions === 1 ? 'it' : 'them';
  if (pending.heldInService === 0) return `${they} deleted on this computer${folders}. Check ${them} before ${them === 'it' ? 'it is' : 'they are'} deleted in the service too.`;
  if (pending.heldOnComputer === 0) return `${they} deleted in the service${folders}. Check ${them} before ${them === 'it' ? 'it is' : 'they are'} deleted on this computer too.`;
  return `${pending.heldOnComputer.toLocaleString('en-US')} were deleted on this computer and ${pending.heldInService.toLocaleString('en-US')} in the service${folders}. Check them before each is deleted on the other side too.`;
}

/** The notices one batch becomes, in a fixed order (most urgent first). */
export function noticesOf(pending: Pending): Notice[] {
  const notices: Notice[] = [];
  if (pending.signInServer !== null) {
    notices.push({ kind: 'sign-in-needed', title: 'Sign in to keep syncing', body: `The sign-in to ${pending.signInServer} has ended. Your files are kept; nothing syncs until you sign in again.`, route: '#/settings' });
  }
  if (pending.conflicts > 0) {
    const [first] = pending.conflictNames;
    notices.push({
      kind: 'conflicts',
      title: pending.conflicts === 1 && first !== undefined ? `“${first}” changed on both sides` : `${plural(pending.conflicts, 'file')} changed on both sides`,
      body: 'Both versions are kept. Choose which one to keep.',
      route: '#/conflicts',
    });
  }
  if (pending.heldDeletions > 0) {
    notices.push({
      kind: 'held-deletions',
      title: `${plural(pending.heldDeletions, 'deletion')} held back`,
      body: heldBody(pending),
      route: '#/held-deletions',
    });
  }
  if (pending.notSynced > 0) {
    const reasons = [...new Set(pending.notSyncedReasons)];
    notices.push({
      kind: 'not-synced',
      title: `${plural(pending.notSynced, 'file')} could not sync`,
      body: reasons.length === 1 && reasons[0] !== undefined ? reasons[0] : 'See why, and what to try, in Asset Sync.',
      route: '#/not-synced',
    });
  }
  return notices;
}

export class NotificationBatcher {
  private pending = empty();
  private cancel: (() => void) | undefined;

  constructor(private readonly options: NotificationBatcherOptions) {}

  /** Takes any app event; the ones that call for the user start or join a batch. */
  push(event: AppEvent): void {
    switch (event.type) {
      case 'conflicts':
        if (event.conflicts.length === 0) return;
        this.pending.conflicts += event.conflicts.length;
        this.pending.conflictNames.push(...event.conflicts.map((conflict) => baseName(conflict.relPath)));
        break;
      case 'not-synced':
        if (event.items.length === 0 && event.total === 0) return;
        this.pending.notSynced += Math.max(event.items.length, event.total);
        this.pending.notSyncedReasons.push(...event.items.map((item) => item.reason));
        break;
      case 'held-deletions':
        this.pending.heldDeletions += event.held.count;
        this.pending.heldOnComputer += event.held.deletedOnComputer;
        this.pending.heldInService += event.held.deletedInService;
        this.pending.heldFolders += 1;
        break;
      case 'sign-in-needed':
        this.pending.signInServer = event.server;
        break;
      case 'state':
      case 'activity':
      case 'quick-download':
        // A quick download's "done" is shown at once by the shell, with "Show in folder".
        return;
    }
    this.cancel ??= this.options.schedule(() => {
      this.flush();
    }, this.options.windowMs ?? 2000);
  }

  /** Shows what was collected now (also on quit, so nothing collected is lost silently). */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    const pending = this.pending;
    this.pending = empty();
    if (!this.options.enabled()) return;
    for (const notice of noticesOf(pending)) this.options.show(notice);
  }

  /** Drops what is pending without showing it. */
  close(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.pending = empty();
  }
}

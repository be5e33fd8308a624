/**
 * What the running passes are doing, per folder: transfer progress and byte counts, the activity log's
 * running entries, whether a pass has finished since the session began, and when a folder last synced.
 * It listens to the engine of the session now (an event with no session is dropped) and never reads the
 * database: what it knows lives only as long as the app runs (the activity log keeps its entries).
 */
import { join } from 'node:path';
import type { Clock } from '../local/index.js';
import type { PassReport } from '../sync/root-sync.js';
import type { TransferEvent } from '../../shared/sync/transfer-event.js';
import type { SyncProgress } from '../../shared/bridge/app-state.js';
import type { ActivityLog } from './activity-log.js';
import type { Engine } from '../engine/index.js';
import type { EngineSession } from './engine-session.js';
import { TransferProgress } from './transfer-progress.js';
import { localChangeActivity } from './local-change-activity.js';

/** What the tracker reads of a session: the root that planned last, the uploads under way, the roots. */
export type TrackedSession = Pick<EngineSession, 'currentRoot' | 'uploading'> & { engine: Pick<Engine, 'roots'> };

export interface TransferTrackerOptions {
  clock: Clock;
  activity: ActivityLog;
  /** The session now, if any. */
  session: () => TrackedSession | undefined;
  changed: () => void;
}

export class TransferTracker {
  private readonly progress = new Map<string, TransferProgress>();
  private readonly passedOnce = new Set<string>();
  private readonly lastSynced = new Map<string, string>();
  /** Activity entries of transfers under way, by root, direction and path. */
  private readonly running = new Map<string, number>();

  constructor(private readonly options: TransferTrackerOptions) {}

  readonly onTransfer = (event: TransferEvent): void => {
    const current = this.options.session();
    if (current === undefined) return;
    switch (event.kind) {
      case 'planned':
        current.currentRoot = event.rootId;
        this.progressOf(event.rootId).planned(event);
        break;
      case 'file-done': {
        this.progressOf(event.rootId).fileDone(event.direction);
        const key = `${event.rootId}\u0000${event.direction}\u0000${event.relPath}`;
        const id = this.running.get(key);
        this.running.delete(key);
        if (id === undefined) this.options.activity.add({ folderId: event.rootId, relPath: event.relPath, kind: event.direction === 'send' ? 'upload' : 'download', status: 'done' });
        else this.options.activity.finish(id, { status: 'done' });
        break;
      }
      case 'local-change':
        // Every change the engine makes to the disk is an entry, not only its transfers.
        this.options.activity.add(localChangeActivity(event.rootId, event));
        break;
    }
    this.options.changed();
  };

  readonly onBytes = (relPath: string, bytes: number): void => {
    const current = this.options.session();
    const rootId = current?.currentRoot;
    if (current === undefined || rootId === undefined) return;
    const root = current.engine.roots().find((row) => row.id === rootId);
    const direction = root !== undefined && current.uploading.has(join(root.path, relPath)) ? 'send' : 'receive';
    this.progressOf(rootId).bytes(direction, bytes);
    const key = `${rootId}\u0000${direction}\u0000${relPath}`;
    let id = this.running.get(key);
    if (id === undefined) {
      id = this.options.activity.add({ folderId: rootId, relPath, kind: direction === 'send' ? 'upload' : 'download', status: 'running' }).id;
      this.running.set(key, id);
    }
    this.options.activity.progress(id, bytes);
    this.options.changed();
  };

  readonly onReport = (report: PassReport): void => {
    const now = (): string => new Date(this.options.clock.now()).toISOString();
    this.passedOnce.add(report.rootId);
    this.progress.get(report.rootId)?.ended();
    if (report.operations > 0 && report.failed === 0 && report.remoteError === undefined) this.lastSynced.set(report.rootId, now());
    if (!this.lastSynced.has(report.rootId) && report.failed === 0 && report.remoteError === undefined) this.lastSynced.set(report.rootId, now());
    // Entries still running when their pass ended did not get there this time.
    for (const [key, id] of this.running) {
      if (!key.startsWith(`${report.rootId}\u0000`)) continue;
      this.running.delete(key);
      this.options.activity.finish(id, { status: 'failed', error: { name: 'SyncError', code: 'TRANSFER_INTERRUPTED', message: 'The transfer did not finish; it is tried again.' } });
    }
    this.options.changed();
  };

  /** A pass has finished for this folder since the session began. */
  hasPassed(rootId: string): boolean {
    return this.passedOnce.has(rootId);
  }

  /** The folder's transfers, while a pass is moving some. */
  progressView(rootId: string): SyncProgress | undefined {
    return this.progress.get(rootId)?.running === true ? this.progress.get(rootId)?.view() : undefined;
  }

  lastSyncedAt(rootId: string): string | null {
    return this.lastSynced.get(rootId) ?? null;
  }

  /** The session ended: its passes and transfers are gone (when each folder last synced is kept). */
  sessionEnded(): void {
    this.progress.clear();
    this.passedOnce.clear();
    this.running.clear();
  }

  private progressOf(rootId: string): TransferProgress {
    let tally = this.progress.get(rootId);
    if (tally === undefined) {
      tally = new TransferProgress(() => this.options.clock.now());
      this.progress.set(rootId, tally);
    }
    return tally;
  }
}

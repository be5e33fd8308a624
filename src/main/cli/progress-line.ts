/**
 * Sync progress for people: on a terminal, one live line rewritten in place (files and bytes of the
 * pass's plan, the smoothed rate, the time left); in a pipe or a log, a plain line per pass that did
 * something. Never prints tokens or signed URLs (it only ever sees paths, counts and messages the
 * engine built). The rate and ETA arithmetic lives in src/shared/sync/transfer-estimate.ts; this file only keeps score
 * and draws.
 */
import type { PlannedTransfers, TransferEvent } from '../../shared/sync/transfer-event.js';
import type { PassReport } from '../sync/root-sync.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { TransferEstimate, bytesStillToMove, formatDuration } from '../../shared/sync/transfer-estimate.js';

const MB = 1_000_000;

/** The live line is redrawn at most this often: more is flicker, and every redraw is a write. */
const REDRAW_MS = 250;

/** 512 B, 4.1 kB, 12.3 MB, 1.07 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const [unit, size] = bytes < MB ? ['kB', 1000] : bytes < 1000 * MB ? ['MB', MB] : ['GB', 1000 * MB];
  return `${(bytes / size).toFixed(bytes < 10 * size ? 2 : 1)} ${unit}`;
}

/** Counted nouns for people: "1 file", "2 files", "0 conflicts" (regular plurals only: adds "s"). */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

export class ProgressLine {
  /** What the current pass planned to move; undefined between passes (bytes then are unplanned, e.g. a resumed upload). */
  private plan: PlannedTransfers | undefined;
  private bytesDone = 0;
  private filesDone = 0;
  private estimate: TransferEstimate;
  private lastDraw = -Infinity;
  private drawn = false;

  constructor(
    private readonly io: CommandIo,
    private readonly now: () => number = Date.now,
  ) {
    this.estimate = new TransferEstimate(now);
  }

  /** Bytes just uploaded or downloaded (an increment). */
  bytes(count: number): void {
    this.bytesDone += count;
    this.estimate.add(count);
    this.draw(false);
  }

  transfer(event: TransferEvent): void {
    switch (event.kind) {
      case 'planned':
        // A pass's own totals and a fresh estimate: the quiet time since the last pass is not its pace.
        this.restart({ send: event.send, receive: event.receive, waiting: event.waiting });
        this.draw(true);
        break;
      case 'file-done':
        this.filesDone++;
        this.draw(false);
        break;
    }
  }

  note(message: string): void {
    this.clear();
    this.io.err(message);
  }

  pass(report: PassReport, rootPath: string): void {
    this.restart(undefined);
    const parts = [
      report.uploaded > 0 ? `${report.uploaded} new` : '',
      report.versions > 0 ? `${report.versions} changed` : '',
      report.moved > 0 ? `${report.moved} moved` : '',
      report.removed > 0 ? `${report.removed} removed` : '',
      report.downloaded > 0 ? `${report.downloaded} downloaded` : '',
      report.localMoved > 0 ? `${report.localMoved} moved here` : '',
      report.trashed > 0 ? `${report.trashed} to the trash` : '',
      report.conflicts > 0 ? plural(report.conflicts, 'conflict') : '',
      report.failed > 0 ? `${report.failed} failed` : '',
      report.settling > 0 ? `${report.settling} still being written` : '',
      report.heldDeletes > 0 ? `${plural(report.heldDeletes, 'deletion')} held` : '',
    ].filter((part) => part !== '');
    if (report.stopped !== undefined) parts.push(`stopped: ${report.stopped}`);
    if (parts.length === 0) return;
    const bytes = `${report.bytesSent > 0 ? ` · ${formatBytes(report.bytesSent)} sent` : ''}${report.bytesReceived > 0 ? ` · ${formatBytes(report.bytesReceived)} received` : ''}`;
    this.note(`${rootPath}: ${parts.join(', ')}${bytes}`);
  }

  done(): void {
    this.clear();
  }

  /**
   * `↑ 3/24 files · 45.2 MB of 340.0 MB · 39.8 MB/s · ETA 7s`; the arrows say which ways the pass
   * moves files. Files still being written come after the pass (`+ 1 file still being written, 2.00 GB`)
   * and are in the ETA. Without a plan, just the bytes and the rate.
   */
  line(): string {
    const rate = this.estimate.rate();
    const speed = rate === undefined ? [] : [`${formatBytes(rate)}/s`];
    const { plan } = this;
    if (plan === undefined) return [formatBytes(this.bytesDone), ...speed].join(' · ');
    const files = plan.send.files + plan.receive.files;
    const bytes = plan.send.bytes + plan.receive.bytes;
    const arrows = `${plan.send.files > 0 ? '↑' : ''}${plan.receive.files > 0 ? '↓' : ''}`;
    // Retried bytes count twice on the wire; the line never says more than the plan.
    const left = this.estimate.secondsLeft(bytesStillToMove(bytes, this.bytesDone, plan.waiting.bytes));
    const waiting = plan.waiting.files > 0 ? [`+ ${plural(plan.waiting.files, 'file')} still being written, ${formatBytes(plan.waiting.bytes)}`] : [];
    return [
      `${arrows} ${Math.min(this.filesDone, files)}/${plural(files, 'file')}`,
      `${formatBytes(Math.min(this.bytesDone, bytes))} of ${formatBytes(bytes)}`,
      ...waiting,
      ...speed,
      ...(left === undefined ? [] : [`ETA ${formatDuration(left)}`]),
    ].join(' · ');
  }

  private restart(plan: PlannedTransfers | undefined): void {
    this.plan = plan;
    this.bytesDone = 0;
    this.filesDone = 0;
    this.estimate = new TransferEstimate(this.now);
  }

  private draw(force: boolean): void {
    if (this.io.live === undefined) return;
    const now = this.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.drawn = true;
    this.io.live(this.line());
  }

  private clear(): void {
    if (this.io.live !== undefined && this.drawn) {
      this.io.live('');
      this.drawn = false;
      this.lastDraw = -Infinity;
    }
  }
}

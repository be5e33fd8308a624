/**
 * Sync progress for people: on a terminal, one live line (files, bytes, rate) rewritten in place; in
 * a pipe or a log, a plain line per pass that did something. Never prints tokens or signed URLs (it
 * only ever sees paths, counts and messages the engine built).
 */
import type { PassReport } from '../sync/root-sync.js';
import type { CommandIo } from './command-io.js';

const MB = 1_000_000;

/** 512 B, 4.1 kB, 12.3 MB, 1.07 GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const [unit, size] = bytes < MB ? ['kB', 1000] : bytes < 1000 * MB ? ['MB', MB] : ['GB', 1000 * MB];
  return `${(bytes / size).toFixed(bytes < 10 * size ? 2 : 1)} ${unit}`;
}

export class ProgressLine {
  private sent = 0;
  private readonly started = Date.now();
  private lastDraw = 0;
  constructor(private readonly io: CommandIo) {}

  bytes(count: number): void {
    this.sent += count;
    if (this.io.live === undefined || Date.now() - this.lastDraw < 250) return;
    this.lastDraw = Date.now();
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.io.live(`↑ ${(this.sent / MB).toFixed(1)} MB · ${(this.sent / MB / seconds).toFixed(1)} MB/s`);
  }

  note(message: string): void {
    this.clear();
    this.io.err(message);
  }

  pass(report: PassReport, rootPath: string): void {
    const parts = [
      report.uploaded > 0 ? `${report.uploaded} new` : '',
      report.versions > 0 ? `${report.versions} changed` : '',
      report.moved > 0 ? `${report.moved} moved` : '',
      report.removed > 0 ? `${report.removed} removed` : '',
      report.downloaded > 0 ? `${report.downloaded} downloaded` : '',
      report.localMoved > 0 ? `${report.localMoved} moved here` : '',
      report.trashed > 0 ? `${report.trashed} to the trash` : '',
      report.conflicts > 0 ? `${report.conflicts} conflicts` : '',
      report.failed > 0 ? `${report.failed} failed` : '',
      report.settling > 0 ? `${report.settling} still being written` : '',
      report.heldDeletes > 0 ? `${report.heldDeletes} deletions held` : '',
    ].filter((part) => part !== '');
    if (report.stopped !== undefined) parts.push(`stopped: ${report.stopped}`);
    if (parts.length === 0) return;
    const bytes = `${report.bytesSent > 0 ? ` · ${formatBytes(report.bytesSent)} sent` : ''}${report.bytesReceived > 0 ? ` · ${formatBytes(report.bytesReceived)} received` : ''}`;
    this.note(`${rootPath}: ${parts.join(', ')}${bytes}`);
  }

  done(): void {
    this.clear();
  }

  private clear(): void {
    if (this.io.live !== undefined && this.lastDraw > 0) {
      this.io.live('');
      this.lastDraw = 0;
    }
  }
}

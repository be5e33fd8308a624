/**
 * The engine's log: JSON lines in `<stateDir>/logs/engine.log`, rotated by size (engine.log.1 … .N),
 * every message passed through `redact` so tokens and signed URLs never reach the disk. Writes are
 * synchronous and small: a log line must be on disk before a crash it might explain.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './redact.js';

export interface LogRecord {
  level: 'info' | 'warn' | 'error';
  message: string;
  [key: string]: unknown;
}

export interface FileLogOptions {
  /** Rotate when the file passes this size (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept (default 3). */
  keep?: number;
  now?: () => number;
}

export class FileLog {
  readonly path: string;
  private size: number;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => number;

  constructor(dir: string, options: FileLogOptions = {}) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = join(dir, 'engine.log');
    this.size = fileSize(this.path);
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
    this.now = options.now ?? Date.now;
  }

  write(record: LogRecord): void {
    const line = `${redact(JSON.stringify({ time: new Date(this.now()).toISOString(), ...record }))}\n`;
    if (this.size + line.length > this.maxBytes && this.size > 0) this.rotate();
    try {
      appendFileSync(this.path, line, { mode: 0o600 });
      this.size += Buffer.byteLength(line);
    } catch {
      // A full or read-only disk must not stop syncing; the CLI still prints what matters.
    }
  }

  private rotate(): void {
    rmSync(`${this.path}.${this.keep}`, { force: true });
    for (let index = this.keep - 1; index >= 1; index--) {
      try {
        renameSync(`${this.path}.${index}`, `${this.path}.${index + 1}`);
      } catch {
        // not there yet
      }
    }
    try {
      renameSync(this.path, `${this.path}.1`);
    } catch {
      // nothing to rotate
    }
    this.size = 0;
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

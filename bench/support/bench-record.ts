/**
 * What one bench run printed, with the facts that say how far to trust it: when, on which commit, on
 * what machine, and how loaded the machine was before and after. `npm run bench -- --write-doc` keeps
 * the latest record of each bench in docs/benchmarks.json and renders docs/benchmarks.md's figures from
 * it (figures-doc.ts), so every figure there comes from a run, never from a hand.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

export interface BenchRecord {
  name: string;
  /** ISO time the bench started. */
  date: string;
  /** The commit it ran on, `-dirty` when the tree had changes beyond the bench records themselves. */
  commit: string;
  host: { cpus: number; model: string; memoryGiB: number; node: string };
  /** One-minute load average before and after the bench. */
  load: { before: number; after: number };
  /** What it printed, each figure beside its baseline. */
  lines: string[];
}

export interface MachineFacts {
  commit: string;
  host: BenchRecord['host'];
}

export function machineFacts(): MachineFacts {
  let commit = 'unknown';
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    // The records a run writes are not a change of the code it measured.
    const changed = execFileSync('git', ['status', '--porcelain', '--', '.', ':!docs/benchmarks.json', ':!docs/benchmarks.md'], { encoding: 'utf8' }).trim();
    commit = changed === '' ? head : `${head}-dirty`;
  } catch {
    // Not a git checkout: the record says so.
  }
  const processors = cpus();
  return {
    commit,
    host: { cpus: processors.length, model: processors[0]?.model.trim() ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  };
}

export const oneMinuteLoad = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** The records kept so far, by bench name (an absent or unreadable file is none). */
export function readRecords(file: string): Map<string, BenchRecord> {
  if (!existsSync(file)) return new Map();
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const list = Array.isArray(parsed) ? (parsed as BenchRecord[]) : [];
  return new Map(list.map((record) => [record.name, record]));
}

/** Replaces the file whole (a temporary file renamed over it), records in `order`. */
export function writeRecords(file: string, records: Map<string, BenchRecord>, order: readonly string[]): void {
  const known = order.filter((name) => records.has(name)).map((name) => records.get(name) as BenchRecord);
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(known, null, 2)}\n`);
  renameSync(temporary, file);
}

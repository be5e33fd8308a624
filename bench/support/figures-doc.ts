/**
 * Renders the figures of docs/benchmarks.md from the bench records (bench-record.ts): a table with each
 * bench's headline figure, whether it met its target, and when, where and under what load it ran; then
 * each bench's output as it printed it. Only the text between the two markers is replaced; the prose
 * around it is the people's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { BenchRecord } from './bench-record.js';

export const FIGURES_START = '<!-- figures: written by `npm run bench -- --write-doc` from docs/benchmarks.json; not edited by hand -->';
export const FIGURES_END = '<!-- end of figures -->';

/** A line that says a figure missed its target. */
const missed = (line: string): boolean => /\b(BELOW|ABOVE) TARGET\b/.test(line) || /\bBEHIND\b/.test(line);

/**
 * The line that says most about a bench: a figure against its target (one that missed it first: a bench
 * with two targets is judged by the one it misses); else its ratio to the baseline; else its first
 * figure of its own beside the baseline's (the lines a bench prints under its title are indented, the
 * baseline's first).
 */
export function headline(lines: readonly string[]): string {
  const tidy = (line: string): string => line.trim().replace(/\s{2,}/g, ' ');
  const targeted = lines.filter((line) => /\(target\b/i.test(line));
  const judged = targeted.find(missed) ?? targeted[0];
  if (judged !== undefined) return tidy(judged);
  const ratio = lines.find((line) => /\bratio\b/i.test(line));
  if (ratio !== undefined) return tidy(ratio);
  const figures = lines.filter((line) => /^\s+\S/.test(line));
  const baseline = figures.find((line) => /^\s*baseline\b/i.test(line));
  const own = figures.find((line) => line !== baseline);
  if (own === undefined) return tidy(baseline ?? lines[0] ?? '');
  return baseline === undefined ? tidy(own) : `${tidy(own)}; ${tidy(baseline)}`;
}

/**
 * Below target when a line says so: BELOW TARGET, ABOVE TARGET (a figure with a ceiling, such as
 * memory), or BEHIND for a bench that must be ahead of others.
 */
export function targetVerdict(lines: readonly string[]): string {
  if (lines.some(missed)) return '**below target**';
  return lines.some((line) => /target/i.test(line)) ? 'met' : '—';
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function renderFigures(records: readonly BenchRecord[], benchNames: readonly string[]): string {
  const byName = new Map(records.map((record) => [record.name, record]));
  const rows = benchNames.map((name) => {
    const record = byName.get(name);
    if (record === undefined) return `| \`${name}\` | not run since records began (see "Earlier figures") | | |`;
    const run = `${record.date.slice(0, 16).replace('T', ' ')} UTC, ${record.commit}, load ${record.load.before} → ${record.load.after}`;
    return `| \`${name}\` | ${cell(headline(record.lines))} | ${targetVerdict(record.lines)} | ${run} |`;
  });
  const machines = [...new Set(records.map((record) => `${record.host.cpus} × ${record.host.model}, ${record.host.memoryGiB} GiB, Node ${record.host.node}`))];
  const outputs = benchNames.flatMap((name) => {
    const record = byName.get(name);
    return record === undefined ? [] : [`#### \`${name}\``, '', '```text', ...record.lines, '```', ''];
  });
  return [
    FIGURES_START,
    '',
    `Machines: ${machines.length === 0 ? 'none yet' : machines.join('; ')}. Load is the one-minute average before → after the bench; above the core count, other work shared the machine and the figures are low.`,
    '',
    '| Bench | Headline | Target | Run |',
    '|---|---|---|---|',
    ...rows,
    '',
    ...outputs,
    FIGURES_END,
  ].join('\n');
}

/** Replaces the figures between the markers of `docFile` (they must be there once each). */
export function writeFiguresInto(docFile: string, figures: string): void {
  const text = readFileSync(docFile, 'utf8');
  const start = text.indexOf(FIGURES_START);
  const end = text.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error(`${docFile} has no figures markers ("${FIGURES_START}" … "${FIGURES_END}").`);
  writeFileSync(docFile, `${text.slice(0, start)}${figures}${text.slice(end + FIGURES_END.length)}`);
}

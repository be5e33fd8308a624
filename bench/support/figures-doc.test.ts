import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIGURES_END, FIGURES_START, headline, renderFigures, targetVerdict, writeFiguresInto } from './figures-doc.js';
import type { BenchRecord } from './bench-record.js';

const record = (name: string, lines: string[]): BenchRecord => ({
  name,
  date: '2026-12-07T14:18:41.064Z',
  commit: 'abc1234',
  host: { cpus: 2, model: 'AMD EPYC', memoryGiB: 24, node: 'v20.20.2' },
  load: { before: 0.4, after: 1.2 },
  lines,
});

describe('the figures of docs/benchmarks.md', () => {
  it('lead with the ratio to the baseline, else the bench\'s own figure beside the baseline', () => {
    expect(headline(['title', '  baseline:   10 MB/s', '  engine:     8 MB/s', '  ratio 0.80 (target ≥ 0.80)'])).toBe('ratio 0.80 (target ≥ 0.80)');
    expect(headline(['bundle', '  baseline (hello):  9.5 KB', '  Asset Sync UI:     49.1 KB'])).toBe('Asset Sync UI: 49.1 KB; baseline (hello): 9.5 KB');
    expect(targetVerdict(['  ratio 0.5 (target ≥ 0.8)  BELOW TARGET'])).toBe('**below target**');
    expect(targetVerdict(['  ratio 0.9 (target ≥ 0.8)'])).toBe('met');
    expect(targetVerdict(["  ratio engine files/s ÷ peer's (target > 1.00): Syncthing 0.83 BEHIND, rclone 20.07"])).toBe('**below target**');
    expect(targetVerdict(['  49 KB'])).toBe('—');
  });

  it('lead with a figure against its target, the one that missed it first', () => {
    const scan = ['scan', '  baseline: walk 9,947 ms', '  ratio 0.85 (target ≤ 1.00)', '  engine peak RSS: 153 MB (target < 150 MB)  ABOVE TARGET'];
    expect(headline(scan)).toBe('engine peak RSS: 153 MB (target < 150 MB) ABOVE TARGET');
    expect(targetVerdict(scan)).toBe('**below target**');
    const start = ['start', '  baseline (empty page): 113 ms', '  the link printed: 147 ms', '  usable: 297 ms (target < 300 ms)'];
    expect(headline(start)).toBe('usable: 297 ms (target < 300 ms)');
    expect(targetVerdict(start)).toBe('met');
    const search = ['search', '  folder', '    service: p50 9.2; ratio p50 2.1×', '  slowest service p50 66.2 ms (target p50 < 10 ms for every shape)  BELOW TARGET'];
    expect(headline(search)).toBe('slowest service p50 66.2 ms (target p50 < 10 ms for every shape) BELOW TARGET');
  });

  it('say which benches have no record yet, and when, where and under what load each ran', () => {
    const text = renderFigures([record('sync', ['sync', '  ratio 0.9 (target ≥ 0.8)'])], ['upload', 'sync']);
    expect(text).toContain('| `upload` | not run since records began');
    expect(text).toContain('| `sync` | ratio 0.9 (target ≥ 0.8) | met | 2026-12-07 14:18 UTC, abc1234, load 0.4 → 1.2 |');
    expect(text).toContain('2 × AMD EPYC, 24 GiB, Node v20.20.2');
  });

  it('replace only the text between the markers', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'figures-')), 'benchmarks.md');
    writeFileSync(file, `# Benchmarks\n\nprose before\n\n${FIGURES_START}\nold\n${FIGURES_END}\n\nprose after\n`);
    writeFiguresInto(file, `${FIGURES_START}\nnew\n${FIGURES_END}`);
    expect(readFileSync(file, 'utf8')).toBe(`# Benchmarks\n\nprose before\n\n${FIGURES_START}\nnew\n${FIGURES_END}\n\nprose after\n`);
    writeFileSync(file, 'no markers');
    expect(() => writeFiguresInto(file, 'x')).toThrow(/has no figures markers/);
  });
});

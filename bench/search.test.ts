import { describe, expect, it } from 'vitest';
import { formatSearchBench, type ShapeResult } from './search.js';
import { headline, targetVerdict } from './support/figures-doc.js';

const shape = (name: string, kind: ShapeResult['kind'], handP50: number, serviceP50: number): ShapeResult => ({
  name,
  kind,
  averageHits: 100,
  handSql: { p50: handP50, p95: handP50 },
  compiledSql: { p50: handP50, p95: handP50 },
  service: { p50: serviceP50, p95: serviceP50 },
});

describe('formatSearchBench', () => {
  it('judges searches by their p50 and listing pages by their ratio to the hand-written SQL', () => {
    const lines = formatSearchBench({
      assets: 1000,
      seedMs: 1000,
      requests: 5,
      shapes: [shape('folder', 'search', 2, 9), shape('listing start', 'listing', 30, 44), shape('listing next', 'listing', 8, 11)],
    });
    // A 1,000-asset page at 44 ms is within 1.5× its 30 ms floor: not held to the searches' 10 ms.
    expect(lines.some((line) => line.includes('BELOW TARGET'))).toBe(false);
    expect(lines).toContain('  slowest search p50 9.0 ms (target < 10 ms for each search of at most 100 hits)');
    expect(lines).toContain('  listing pages: worst ratio 1.47× (target ≤ 1.5× the hand-written SQL for each page of 1,000)');
    expect(targetVerdict(lines)).toBe('met');
  });

  it('names the target a shape misses in the headline', () => {
    const lines = formatSearchBench({ assets: 1000, seedMs: 1000, requests: 5, shapes: [shape('keyword', 'search', 7, 9.5), shape('listing next', 'listing', 8, 40)] });
    // The listing page's own line and the listings' summary; the keyword search meets its 10 ms.
    expect(lines.filter((line) => line.includes('BELOW TARGET'))).toEqual([expect.stringContaining('ratio p50 5.0×'), expect.stringContaining('listing pages')]);
    expect(headline(lines)).toBe('listing pages: worst ratio 5.00× (target ≤ 1.5× the hand-written SQL for each page of 1,000) BELOW TARGET');
  });
});

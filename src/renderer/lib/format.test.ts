import { describe, expect, it } from 'vitest';
import { baseName, formatAgo, formatBytes, formatCount, formatEta, formatUntil, fraction, plural } from './format.js';

describe('format', () => {
  it('writes counts with thousands separators and plurals', () => {
    expect(formatCount(2431)).toBe('2,431');
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(10_000, 'file')).toBe('10,000 files');
  });

  it('writes sizes in decimal units with one decimal below ten', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1_200_000)).toBe('1.2 MB');
    expect(formatBytes(14_400_000_000)).toBe('14 GB');
  });

  it('rounds time left to words', () => {
    expect(formatEta(20)).toBe('less than a minute left');
    expect(formatEta(240)).toBe('about 4 min left');
    expect(formatEta(7800)).toBe('about 2 h 10 min left');
    expect(formatEta(7200)).toBe('about 2 h left');
  });

  it('says how long ago and how soon', () => {
    const now = Date.parse('2026-03-03T12:00:00Z');
    expect(formatAgo('2026-03-03T11:59:50Z', now)).toBe('just now');
    expect(formatAgo('2026-03-03T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAgo('2026-03-02T11:00:00Z', now)).toBe('yesterday');
    expect(formatUntil('2026-03-03T12:00:30Z', now)).toBe('in 30 s');
    expect(formatUntil('2026-03-03T12:04:00Z', now)).toBe('in 4 min');
  });

  it('takes the last part of a path and clamps fractions', () => {
    expect(baseName('/home/ana/Asset Sync/')).toBe('Asset Sync');
    expect(baseName('C:\\Users\\ana\\Brand')).toBe('Brand');
    expect(fraction(5, 0)).toBe(0);
    expect(fraction(12, 10)).toBe(1);
  });
});

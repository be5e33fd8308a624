import { describe, expect, it } from 'vitest';
import { copyOutcome } from './copy-result.js';

describe('what a copy into a synced folder says', () => {
  it('names the folder, and is short when every name was free', () => {
    expect(copyOutcome({ copied: 1, renamed: [] }, 'Design')).toBe('Copied 1 file into “Design”.');
    expect(copyOutcome({ copied: 1200, renamed: [] }, 'Design')).toBe('Copied 1,200 files into “Design”.');
  });

  it('says what a copy was named when its name was taken', () => {
    expect(copyOutcome({ copied: 2, renamed: [{ asked: 'README.txt', named: 'README (2).txt' }] }, 'Design')).toBe(
      'Copied 2 files into “Design”. “README.txt” was already there, so the copy is named “README (2).txt”.',
    );
    const renamed = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ asked: `${name}.png`, named: `${name} (2).png` }));
    expect(copyOutcome({ copied: 5, renamed: renamed.slice(0, 2) }, 'Design')).toBe('Copied 5 files into “Design”. 2 names were already there, so the copies are named “a (2).png” and “b (2).png”.');
    expect(copyOutcome({ copied: 5, renamed }, 'Design')).toBe(
      'Copied 5 files into “Design”. 5 names were already there, so the copies are named “a (2).png”, “b (2).png”, “c (2).png” and 2 more.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { QuickSearchResult } from '../../shared/bridge/quick-download.js';
import { offeredPresets, onlyOriginalWords } from './quick-presets.js';

const presets = [
  { id: 'web', name: 'Web (1000 px JPG)' },
  { id: 'print', name: 'Print (TIFF)' },
];
const file = (filename: string, presetIds: string[] | null): QuickSearchResult => ({ assetId: 'a', filename, size: 1, fileType: 'IMAGE', dimensions: null, previewUrl: null, presetIds });

describe('the presets offered for a file', () => {
  it('offers what the service says transforms the file, and only the original where nothing does', () => {
    expect(offeredPresets(presets, file('photo.jpg', ['web', 'print']))).toEqual(presets);
    expect(offeredPresets(presets, file('brief.pdf', []))).toEqual([]);
    expect(onlyOriginalWords(presets, file('brief.pdf', []))).toBe('No preset applies to “brief.pdf”: it downloads as it is.');
    expect(onlyOriginalWords(presets, file('photo.jpg', ['web']))).toBeNull();
  });

  it('offers every preset before a file is chosen, or when the service cannot say', () => {
    expect(offeredPresets(presets, undefined)).toEqual(presets);
    expect(offeredPresets(presets, file('photo.jpg', null))).toEqual(presets);
    expect(onlyOriginalWords([], file('brief.pdf', []))).toBeNull();
  });
});

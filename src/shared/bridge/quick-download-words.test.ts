import { describe, expect, it } from 'vitest';
import { downloadedWords } from './quick-download-words.js';

describe('what a finished quick download says', () => {
  it('names the file, says original when it arrived as it is, and why when a preset did not apply', () => {
    expect(downloadedWords({ filename: 'photo (Web 1000 px JPG).jpg', presetId: 'web', note: null })).toBe('Downloaded photo (Web 1000 px JPG).jpg.');
    expect(downloadedWords({ filename: 'photo.jpg', presetId: null, note: null })).toBe('Downloaded photo.jpg (original).');
    expect(downloadedWords({ filename: 'brief.pdf', presetId: null, note: 'Web (1000 px JPG) does not apply to this file, so it arrived as it is.' })).toBe(
      'Downloaded brief.pdf: Web (1000 px JPG) does not apply to this file, so it arrived as it is.',
    );
  });
});

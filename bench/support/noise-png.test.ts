import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { noisePng } from './noise-png.js';

describe('noisePng', () => {
  it('makes a PNG of exactly the size asked, which an image reader decodes, different each time', async () => {
    for (const size of [4096, 1000, 20_000]) {
      const png = noisePng(size);
      expect(png.length).toBe(size);
      const { info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect(info.width).toBe(32);
      expect(info.height).toBeGreaterThan(0);
    }
    expect(noisePng(4096).equals(noisePng(4096))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { looksLike, previewFormOf, variantSize } from './preview-form.js';

const file = (media: string, size = 100, dimensions: [number, number] | null = [10, 10]) => {
  const [type = '', subtype = ''] = media.split('/');
  return { media_type: type, media_subtype: subtype, size, width: dimensions?.[0] ?? null, height: dimensions?.[1] ?? null };
};

describe('previewFormOf', () => {
  it.each([
    ['image/jpeg', 'jpg', 'image/jpeg'],
    ['image/png', 'png', 'image/png'],
    ['image/gif', 'gif', 'image/gif'],
    ['image/webp', 'webp', 'image/webp'],
    ['image/avif', 'avif', 'image/avif'],
    ['image/svg+xml', 'svg', 'image/svg+xml'],
  ])('serves %s as it is', (media, extension, contentType) => {
    expect(previewFormOf(file(media))).toEqual({ form: 'original', extension, contentType });
  });

  it('renders TIFF, documents, and web images whose header was not read', () => {
    expect(previewFormOf(file('image/tiff'))).toEqual({ form: 'rendered', kind: 'image' });
    expect(previewFormOf(file('image/png', 100, null))).toEqual({ form: 'rendered', kind: 'image' });
    expect(previewFormOf(file('application/pdf', 100, null))).toEqual({ form: 'rendered', kind: 'document' });
  });

  it('has none for video, audio, images no renderer here reads, and empty files', () => {
    for (const media of ['video/mp4', 'audio/mpeg', 'image/heic', 'image/vnd.adobe.photoshop', 'image/x-canon-cr2', 'text/plain']) expect(previewFormOf(file(media)), media).toBeUndefined();
    expect(previewFormOf(file('image/png', 0))).toBeUndefined();
  });
});

describe('variantSize', () => {
  it('takes the largest size of the set not above the one asked, the smallest below it', () => {
    expect([1, 63, 64, 100, 128, 300, 511, 512, 1023, 1024, 100_000].map(variantSize)).toEqual([64, 64, 64, 64, 128, 256, 256, 512, 512, 1024, 1024]);
  });
});

describe('looksLike', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? Array.from(part, (c) => c.charCodeAt(0)) : part)));
  it('checks the magic number of each web image type', () => {
    expect(looksLike('jpg', bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(looksLike('png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(looksLike('gif', bytes('GIF89a'))).toBe(true);
    expect(looksLike('webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe(true);
    expect(looksLike('avif', bytes([0, 0, 0, 0x1c], 'ftypavif'))).toBe(true);
    expect(looksLike('svg', bytes('\n  <svg xmlns="http://www.w3.org/2000/svg">'))).toBe(true);
  });
  it('refuses bytes of another kind under the name', () => {
    expect(looksLike('png', bytes('P6\n640 480\n255\n'))).toBe(false);
    expect(looksLike('png', bytes('<svg/>'))).toBe(false);
    expect(looksLike('jpg', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe(false);
    expect(looksLike('svg', bytes([0x1f, 0x8b, 8, 0]))).toBe(false);
    expect(looksLike('webp', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBe(false);
  });
});

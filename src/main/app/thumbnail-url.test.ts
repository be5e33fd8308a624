import { describe, expect, it } from 'vitest';
import { ORIGINAL_THUMBNAIL_BYTES, thumbnailUrl } from './thumbnail-url.js';

const signed = 'https://assets.example.test/previews/abc.jpg?expires=1&signature=x';
const jpeg = { type: 'image', subType: 'jpeg' };

describe('thumbnailUrl', () => {
  it('asks our service (it says previewState) for the size, keeping the signature', () => {
    const url = new URL(thumbnailUrl({ previewUrl: signed, previewState: 'AVAILABLE', mediaType: jpeg, size: 50_000_000 }, 128) ?? '');
    expect(url.pathname).toBe('/previews/abc.jpg');
    expect(Object.fromEntries(url.searchParams)).toEqual({ expires: '1', signature: 'x', size: '128' });
  });

  it("leaves the hosted service's URL as signed, and skips an original too large for a thumbnail", () => {
    expect(thumbnailUrl({ previewUrl: signed, mediaType: jpeg, size: 3_000_000 }, 128)).toBe(signed);
    expect(thumbnailUrl({ previewUrl: signed, mediaType: jpeg, size: ORIGINAL_THUMBNAIL_BYTES + 1 }, 128)).toBeNull();
    // A document's preview there is a web image, whatever the document's size.
    expect(thumbnailUrl({ previewUrl: signed, mediaType: { type: 'application', subType: 'pdf' }, size: 90_000_000 }, 128)).toBe(signed);
  });

  it('has none when the service has none', () => {
    expect(thumbnailUrl({ previewUrl: null, previewState: 'FAILED', mediaType: jpeg, size: 10 }, 128)).toBeNull();
    expect(thumbnailUrl({ mediaType: jpeg, size: 10 }, 128)).toBeNull();
  });
});

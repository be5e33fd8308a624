import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, makePdf, pixelAt } from '../../support/media-fixtures.js';

const sha256Of = (previewUrl: string): string => /\/previews\/([0-9a-f]{64})\.webp/.exec(previewUrl)?.[1] ?? '';

describe('previews', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it("makes a PDF's preview in the background after upload: an image of its first page", async () => {
    const { asset } = await uploadNewAsset(service, '/pv/brief.pdf', await makePdf(2));
    const previewUrl: string = asset.currentAssetFile.previewUrl;
    expect(previewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/previews\/[0-9a-f]{64}\.webp\?/);
    // Made without anyone asking for it.
    await service.running.previewsIdle();
    expect(existsSync(join(service.dataDir, 'previews', `${sha256Of(previewUrl)}.webp`))).toBe(true);

    const { response, bytes } = await fetchBytes(previewUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 768 });
    // Page 1: left half red, right half white (page 2's left half is blue).
    const [r, g, b] = await pixelAt(bytes, 100, 384);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(60);
    expect((await pixelAt(bytes, 900, 384)).every((channel) => channel > 230)).toBe(true);
  });

  it('serves previews immutable under their content address, and answers a revalidation with 304', async () => {
    const { asset } = await uploadNewAsset(service, '/pv/photo.jpg', await makeImage(3000, 2000));
    const previewUrl: string = asset.currentAssetFile.previewUrl;
    const first = await fetchBytes(previewUrl);
    expect(first.response.headers.get('cache-control')).toMatch(/immutable/);
    const etag = first.response.headers.get('etag') ?? '';
    expect(etag).toBe(`"${sha256Of(previewUrl)}-preview"`);
    expect(await sharp(first.bytes).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 683 });
    const again = await fetch(previewUrl, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('rasterises an SVG', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#00ff00"/></svg>');
    const { asset } = await uploadNewAsset(service, '/pv/logo.svg', svg);
    const { bytes } = await fetchBytes(asset.currentAssetFile.previewUrl);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.width).toBe(2 * metadata.height);
    const [r, g, b] = await pixelAt(bytes, 10, 10);
    expect(g).toBeGreaterThan(200);
    expect(r + b).toBeLessThan(60);
  });

  it('gives video and other files no preview', async () => {
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]);
    expect((await uploadNewAsset(service, '/pv/clip.mp4', video)).asset.currentAssetFile).toMatchObject({ previewUrl: null, previewState: 'NONE' });
    expect((await uploadNewAsset(service, '/pv/data.bin', Buffer.from('plain bytes'))).asset.currentAssetFile.previewUrl).toBeNull();
  });

  it('answers 422 PREVIEW_FAILED for a document that cannot be rendered, and the asset says why', async () => {
    const { asset } = await uploadNewAsset(service, '/pv/broken.pdf', Buffer.from('%PDF-1.7\nthis is not really a PDF\n'));
    const previewUrl: string | null = asset.currentAssetFile.previewUrl;
    expect(previewUrl).not.toBeNull();
    const response = await fetch(previewUrl ?? '');
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'PREVIEW_FAILED', message: expect.stringMatching(/^The preview of this file could not be made\. The file could not be read as a document: /) });
    const file = (await service.api('GET', `/assets/${asset.id}`)).body.result.currentAssetFile;
    expect(file).toMatchObject({ previewUrl: null, previewState: 'FAILED', previewError: { code: 'PREVIEW_FAILED', reason: 'UNREADABLE' } });
  });
});

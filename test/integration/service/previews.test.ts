import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { randomFile, uploadNewAsset } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, makePdf, pixelAt } from '../../support/media-fixtures.js';
import { expectApiError } from '../../support/expect-api-error.js';
import type { RenderCageEvent } from '../../../src/service/render-cage/render-cage.js';
import { billingPeriods, usageOf } from '../../../src/service/administration/subscription-usage.js';

const shaOf = (previewUrl: string): string => /\/previews\/([0-9a-f]{64})\./.exec(previewUrl)?.[1] ?? '';
const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
/** The signed preview URL with `?size=` added, as a client does. */
const sized = (previewUrl: string, size: number | string): string => {
  const url = new URL(previewUrl);
  url.searchParams.set('size', String(size));
  return url.toString();
};

describe('previews', () => {
  let service: TestService;
  /** Labels (blob hashes) of the renders the cage started. */
  const started: string[] = [];
  const onCage = (message: unknown): void => {
    const event = message as RenderCageEvent;
    if (event.phase === 'start') started.push(event.label);
  };
  beforeAll(async () => {
    service = await startTestService();
    subscribe('asset-sync:render-cage', onCage);
  });
  afterAll(async () => {
    unsubscribe('asset-sync:render-cage', onCage);
    await service.dispose();
  });
  afterEach(() => {
    started.length = 0;
  });

  it.each([
    ['JPEG', 'photo.jpg', 'jpeg', 'image/jpeg'],
    ['PNG', 'chart.png', 'png', 'image/png'],
    ['GIF', 'icon.gif', 'gif', 'image/gif'],
    ['WebP', 'banner.webp', 'webp', 'image/webp'],
  ] as const)("serves a %s's original bytes as its preview, with its media type, and renders nothing for it", async (_, name, format, contentType) => {
    const bytes = await makeImage(1600, 1200, { format });
    const { asset } = await uploadNewAsset(service, `/pv/${name}`, bytes);
    const file = asset.currentAssetFile;
    expect(file).toMatchObject({ previewState: 'AVAILABLE', mediaType: { type: 'image', subType: format } });
    const { response, bytes: body } = await fetchBytes(file.previewUrl);
    expect(response.status).toBe(200);
    expect(md5(body)).toBe(file.checksum);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('etag')).toBe(`"${file.checksum}"`);
    expect(response.headers.get('cache-control')).toMatch(/immutable/);
    // Nothing rendered, at upload or since.
    await service.running.previewsIdle();
    expect(started).not.toContain(file.sha256);
    expect(existsSync(join(service.dataDir, 'previews', `${file.sha256}.webp`))).toBe(false);
  });

  it("makes a PDF's preview in the background after upload: an image of its first page", async () => {
    const { asset } = await uploadNewAsset(service, '/pv/brief.pdf', await makePdf(2));
    const previewUrl: string = asset.currentAssetFile.previewUrl;
    expect(previewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/previews\/[0-9a-f]{64}\.webp\?/);
    // Made without anyone asking for it.
    await service.running.previewsIdle();
    expect(existsSync(join(service.dataDir, 'previews', `${shaOf(previewUrl)}.webp`))).toBe(true);

    const { response, bytes } = await fetchBytes(previewUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 768 });
    // Page 1: left half red, right half white (page 2's left half is blue).
    const [r, g, b] = await pixelAt(bytes, 100, 384);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(60);
    expect((await pixelAt(bytes, 900, 384)).every((channel) => channel > 230)).toBe(true);
    // Its thumbnail comes from that preview, not from the PDF again.
    const thumbnail = await fetchBytes(sized(previewUrl, 200));
    expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ format: 'webp', width: 128, height: 96 });
  });

  it("renders a TIFF's preview as a web image", async () => {
    const { asset } = await uploadNewAsset(service, '/pv/scan.tif', await makeImage(2000, 1000, { format: 'tiff' }));
    expect(asset.currentAssetFile.previewUrl).toMatch(/\/previews\/[0-9a-f]{64}\.webp\?/);
    const { response, bytes } = await fetchBytes(asset.currentAssetFile.previewUrl);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 512 });
  });

  it('serves an SVG as it is, under a sandbox policy', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#00ff00"/><script>alert(1)</script></svg>');
    const { asset } = await uploadNewAsset(service, '/pv/logo.svg', svg);
    const { response, bytes } = await fetchBytes(asset.currentAssetFile.previewUrl);
    expect(response.status).toBe(200);
    expect(bytes.equals(svg)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // Its thumbnail is rasterised in the cage.
    const thumbnail = await fetchBytes(sized(asset.currentAssetFile.previewUrl, 64));
    const metadata = await sharp(thumbnail.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 64, height: 32 });
    const [r, g, b] = await pixelAt(thumbnail.bytes, 10, 10);
    expect(g).toBeGreaterThan(200);
    expect(r + b).toBeLessThan(60);
  });

  it('makes a sized variant on first request, at most the size asked, from the set of sizes; cached, and counted in no storage figure', async () => {
    const bytes = await makeImage(4000, 3000);
    const { asset } = await uploadNewAsset(service, '/pv/large.jpg', bytes);
    const file = asset.currentAssetFile;
    const usage = (): number => usageOf(service.running.ctx.db, asset.accountId, billingPeriods('TIERED', '2026-01-01', Date.now(), 1))[0]?.storageBytes ?? -1;
    const before = usage();
    for (const [asked, width] of [
      [300, 256],
      [256, 256],
      [1000, 512],
      [5000, 1024],
      [10, 64],
    ] as const) {
      const { response, bytes: body } = await fetchBytes(sized(file.previewUrl, asked));
      expect(response.status, `size=${asked}`).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(await sharp(body).metadata(), `size=${asked}`).toMatchObject({ format: 'webp', width, height: (width * 3) / 4 });
    }
    expect(started.filter((label) => label === file.sha256)).toHaveLength(4);
    // Kept: asked again, nothing is rendered; and the variants are nobody's storage.
    const renders = started.length;
    expect((await fetchBytes(sized(file.previewUrl, 300))).response.status).toBe(200);
    expect(started).toHaveLength(renders);
    expect(readdirSync(join(service.dataDir, 'previews')).filter((name) => name.startsWith(file.sha256)).sort()).toEqual(
      [`${file.sha256}-256.webp`, `${file.sha256}-512.webp`, `${file.sha256}-64.webp`, `${file.sha256}.webp`].sort(),
    );
    expect(usage()).toBe(before);
    // The plain URL is still the original.
    expect(md5((await fetchBytes(file.previewUrl)).bytes)).toBe(file.checksum);
    expectApiError(await jsonAnswer(sized(file.previewUrl, 'big')), 400, 'INVALID_QUERY');
  });

  it('serves an image already within the size asked as it is', async () => {
    const bytes = await makeImage(120, 80, { format: 'png' });
    const { asset } = await uploadNewAsset(service, '/pv/small.png', bytes);
    const { response, bytes: body } = await fetchBytes(sized(asset.currentAssetFile.previewUrl, 128));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(body.equals(bytes)).toBe(true);
    expect(started).not.toContain(asset.currentAssetFile.sha256);
  });

  it('gives bytes that only carry an image name a rendered preview, which reads PREVIEW_FAILED when nothing reads them', async () => {
    const { asset } = await uploadNewAsset(service, '/pv/noise.png', randomFile(3000));
    const file = asset.currentAssetFile;
    expect(file).toMatchObject({ mediaType: { type: 'image', subType: 'png' }, dimensions: null, previewUrl: expect.stringMatching(/\.webp\?/) });
    await service.running.previewsIdle();
    const answer = await jsonAnswer(file.previewUrl);
    expectApiError(answer, 422, 'PREVIEW_FAILED');
    expect((await service.api('GET', `/assets/${asset.id}`)).body.result.currentAssetFile).toMatchObject({ previewUrl: null, previewState: 'FAILED', previewError: { reason: 'UNREADABLE' } });
  });

  it('says which files of a page of search results have previews that could not be made (read once for the page)', async () => {
    const failedA = (await uploadNewAsset(service, '/pv/page-noise-a.png', randomFile(3001))).asset;
    const failedB = (await uploadNewAsset(service, '/pv/page-noise-b.png', randomFile(3002))).asset;
    const fine = (await uploadNewAsset(service, '/pv/page-fine.png', await makeImage(300, 200, { format: 'png' }))).asset;
    await service.running.previewsIdle();
    const ids = [failedA.id, failedB.id, fine.id];
    const found = await service.api('POST', '/asset-searches', {
      pageSize: 10,
      criterion: {
        type: 'AND',
        criteria: [
          { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: ids },
          { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] },
        ],
      },
      sorts: [],
    });
    expect(found.status, found.text).toBe(200);
    const byId = new Map<string, unknown>(found.body.results.map((envelope: { result: { id: string; currentAssetFile: unknown } }) => [envelope.result.id, envelope.result.currentAssetFile]));
    expect(byId.size).toBe(3);
    for (const id of [failedA.id, failedB.id]) expect(byId.get(id)).toMatchObject({ previewUrl: null, previewState: 'FAILED', previewError: { code: 'PREVIEW_FAILED', reason: 'UNREADABLE' } });
    expect(byId.get(fine.id)).toMatchObject({ previewState: 'AVAILABLE', previewUrl: expect.stringMatching(/\.png\?/) });
  });

  it('answers a preview URL of the earlier form (.webp of a JPEG) with the rendition, kept from before or made', async () => {
    const bytes = await makeImage(2000, 1000);
    const { asset } = await uploadNewAsset(service, '/pv/before.jpg', bytes);
    const file = asset.currentAssetFile;
    const url = new URL(file.previewUrl);
    // Signed as an earlier version of the service signed it.
    const earlier = service.running.ctx.signer.sign(`/previews/${file.sha256}.webp`, {}, 3600).url;
    expect(url.pathname).toBe(`/previews/${file.sha256}.jpg`);
    const { response, bytes: body } = await fetchBytes(earlier);
    expect(response.status).toBe(200);
    expect(await sharp(body).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 512 });
    // That rendition is the largest variant: an installation's previews made before serve as such.
    const renders = started.length;
    expect(await sharp((await fetchBytes(sized(file.previewUrl, 1024))).bytes).metadata()).toMatchObject({ width: 1024, height: 512 });
    expect(started).toHaveLength(renders);
    // A name the file's preview does not have is no preview of it.
    const other = service.running.ctx.signer.sign(`/previews/${file.sha256}.png`, {}, 3600).url;
    expectApiError(await jsonAnswer(other), 404, 'NOT_FOUND');
  });

  it('shows a public share the same previews', async () => {
    const bytes = await makeImage(800, 600);
    const { asset } = await uploadNewAsset(service, '/pv/shared.jpg', bytes);
    const created = await service.api('POST', '/asset-shares', { assetIds: [asset.id], access: 'VIEW' });
    expect(created.status, created.text).toBe(200);
    const seen = (await jsonAnswer(`${service.url}/public/asset-shares/${created.body.result.id}`)).body.result.assets.results[0];
    const { response, bytes: body } = await fetchBytes(seen.previewUrl);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(md5(body)).toBe(asset.currentAssetFile.checksum);
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

async function jsonAnswer(url: string): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, makePdf, pixelAt, runDownloadJob } from '../../support/media-fixtures.js';
import { md5Hex } from '../../support/checksums.js';

const items = (...assetIds: string[]) => assetIds.map((assetId, index) => ({ batchItemId: `i${index}`, assetId, assetFileId: null }));
const custom = (...candidates: unknown[]) => ({ type: 'CUSTOM', candidateTransformations: candidates });
const always = (...operations: unknown[]) => ({ criteria: { type: 'MATCH_ALL' }, transformation: { operations } });

describe('download transformations', () => {
  let service: TestService;
  let jpegId: string;
  let jpeg: Buffer;
  let pdfId: string;
  let pdf: Buffer;
  beforeAll(async () => {
    service = await startTestService();
    // 2000×1500 red, with a blue 500×400 box at (1200, 100).
    jpeg = await makeImage(2000, 1500, { box: { x: 1200, y: 100, width: 500, height: 400 } });
    jpegId = (await uploadNewAsset(service, '/Shots/photo.jpg', jpeg)).assetId;
    pdf = await makePdf();
    pdfId = (await uploadNewAsset(service, '/Docs/brief.pdf', pdf)).assetId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('resizes and converts, answering the rendition with its real size, checksum, type and name', async () => {
    const job = await runDownloadJob(service, {
      items: items(jpegId),
      transformationDescription: custom(always({ type: 'RESIZE', width: 500 }, { type: 'CONVERT', format: 'PNG' })),
    });
    const item = job.successes.i0;
    expect(item).toMatchObject({ filename: 'photo.png', contentType: 'image/png' });
    const { response, bytes } = await fetchBytes(item.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(bytes.length).toBe(item.size);
    expect(md5Hex(bytes)).toBe(item.checksum);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 500, height: 375 });
  });

  it('says how long its polls are held while a job is unfinished, and nothing once it is done [ours]', async () => {
    // Its creation is held until the first chunk of 100 is in: the 101st item is still to come then.
    const created = await service.api('POST', '/asset-download-batch-jobs', {
      items: items(...Array.from({ length: 101 }, () => jpegId)),
      transformationDescription: custom(always({ type: 'RESIZE', width: 321 }, { type: 'CONVERT', format: 'WEBP' })),
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ state: 'RUNNING', pollHoldMs: 250 });
    expect(created.body.result.successes).not.toHaveProperty('i100');
    const job = await waitForJob(service, '/asset-download-batch-jobs', created.body.result.id);
    expect(job.state).toBe('COMPLETED');
    expect(job).not.toHaveProperty('pollHoldMs');
  });

  it('crops a box out of the image, before converting with the quality asked for', async () => {
    const job = await runDownloadJob(service, {
      items: items(jpegId),
      transformationDescription: custom(always({ type: 'CROP', x: 1200, y: 100, width: 500, height: 400 }, { type: 'CONVERT', format: 'WEBP', quality: 60 })),
    });
    const { bytes } = await fetchBytes(job.successes.i0.url);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 500, height: 400 });
    // The box was blue: every corner of the crop is blue.
    for (const [x, y] of [[2, 2], [497, 2], [2, 397], [497, 397]] as const) {
      const [r, g, b] = await pixelAt(bytes, x, y);
      expect(b).toBeGreaterThan(200);
      expect(r + g).toBeLessThan(60);
    }
  });

  it('applies each operation in order: a crop after a resize is in the resized pixels', async () => {
    const job = await runDownloadJob(service, {
      items: items(jpegId),
      transformationDescription: custom(always({ type: 'RESIZE', width: 1000, height: 1000, fit: 'INSIDE' }, { type: 'CROP', x: 600, y: 50, width: 250, height: 200 }, { type: 'RESIZE', width: 100 })),
    });
    const { bytes } = await fetchBytes(job.successes.i0.url);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 100, height: 80 });
    const [r, , b] = await pixelAt(bytes, 50, 40);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(40);
  });

  it('covers a box exactly (a centred crop) and fills one ignoring the aspect ratio', async () => {
    const job = await runDownloadJob(service, {
      items: [
        { batchItemId: 'cover', assetId: jpegId, assetFileId: null },
      ],
      transformationDescription: custom(always({ type: 'RESIZE', width: 300, height: 300, fit: 'COVER' })),
    });
    expect(await sharp((await fetchBytes(job.successes.cover.url)).bytes).metadata()).toMatchObject({ width: 300, height: 300 });
    const filled = await runDownloadJob(service, { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE', width: 300, height: 100, fit: 'FILL' })) });
    expect(await sharp((await fetchBytes(filled.successes.i0.url)).bytes).metadata()).toMatchObject({ width: 300, height: 100 });
  });

  it('never blows a smaller image up, in any fit, unless the operation says enlarge', async () => {
    for (const fit of ['INSIDE', 'COVER', 'FILL'] as const) {
      const kept = await runDownloadJob(service, { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE', width: 3000, height: 3000, fit })) });
      const { width, height } = await sharp((await fetchBytes(kept.successes.i0.url)).bytes).metadata();
      expect(width).toBeLessThanOrEqual(2000);
      expect(height).toBeLessThanOrEqual(1500);
    }
    const enlarged = await runDownloadJob(service, { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE', width: 3000, height: 3000, fit: 'COVER', enlarge: true })) });
    expect(await sharp((await fetchBytes(enlarged.successes.i0.url)).bytes).metadata()).toMatchObject({ width: 3000, height: 3000 });
  });

  it('falls through candidates that do not apply: criteria not met, a crop outside the image, then the first that works', async () => {
    const job = await runDownloadJob(service, {
      items: items(jpegId),
      transformationDescription: custom(
        { criteria: { type: 'MEDIA_SUBTYPE_IN', subTypes: ['png'] }, transformation: { operations: [{ type: 'RESIZE', width: 10 }] } },
        always({ type: 'CROP', x: 1900, y: 0, width: 500, height: 500 }),
        { criteria: { type: 'FILE_TYPE_IN', fileTypes: ['IMAGE'] }, transformation: { operations: [{ type: 'RESIZE', height: 300 }, { type: 'CONVERT', format: 'AVIF' }] } },
      ),
    });
    const { bytes } = await fetchBytes(job.successes.i0.url);
    expect(job.successes.i0.filename).toBe('photo.avif');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'heif', compression: 'av1', height: 300 });
  });

  it('hands over the original when no candidate applies (a resize of a PDF), never an error', async () => {
    const job = await runDownloadJob(service, {
      items: items(pdfId, jpegId),
      transformationDescription: custom({ criteria: { type: 'MATCH_ALL' }, transformation: { operations: [{ type: 'RESIZE', width: 100 }] } }, { criteria: { type: 'FILE_TYPE_IN', fileTypes: ['VIDEO'] }, transformation: { operations: [] } }),
    });
    expect(job.failures).toEqual({});
    expect(job.successes.i0).toMatchObject({ filename: 'brief.pdf', size: pdf.length, checksum: md5Hex(pdf), contentType: 'application/pdf' });
    const { bytes } = await fetchBytes(job.successes.i0.url);
    expect(bytes.equals(pdf)).toBe(true);
    expect(await sharp((await fetchBytes(job.successes.i1.url)).bytes).metadata()).toMatchObject({ width: 100, height: 75 });
  });

  it('applies a preset to a PDF and a JPEG in one job: the JPEG web-sized, the PDF as it is', async () => {
    const job = await runDownloadJob(service, { items: items(jpegId, pdfId), transformationDescription: { type: 'PRESET', presetTransformationId: 'web-1000-jpg' } });
    expect(job.state).toBe('COMPLETED');
    const web = await fetchBytes(job.successes.i0.url);
    expect(await sharp(web.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 750 });
    expect(md5Hex(web.bytes)).toBe(job.successes.i0.checksum);
    expect((await fetchBytes(job.successes.i1.url)).bytes.equals(pdf)).toBe(true);
  });

  it('renders a (file, transformation) once: the same request again reuses the cached rendition', async () => {
    const body = { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE', width: 321 })) };
    const first = await runDownloadJob(service, body);
    const cached = readdirSync(join(service.dataDir, 'transforms')).length;
    const second = await runDownloadJob(service, body);
    expect(readdirSync(join(service.dataDir, 'transforms')).length).toBe(cached);
    expect(new URL(second.successes.i0.url).pathname).toBe(new URL(first.successes.i0.url).pathname);
  });

  it('serves a rendition with Range, so an interrupted download resumes', async () => {
    const job = await runDownloadJob(service, { items: items(jpegId), transformationDescription: custom(always({ type: 'CONVERT', format: 'TIFF' })) });
    const item = job.successes.i0;
    const whole = (await fetchBytes(item.url)).bytes;
    const tail = await fetchBytes(item.url, { range: 'bytes=1000-' });
    expect(tail.response.status).toBe(206);
    expect(tail.response.headers.get('content-range')).toBe(`bytes 1000-${item.size - 1}/${item.size}`);
    expect(tail.bytes.equals(whole.subarray(1000))).toBe(true);
    expect(await sharp(whole).metadata()).toMatchObject({ format: 'tiff', width: 2000, height: 1500 });
  });

  it('serves a small rendition (read whole) with Range, and renders it again when its file was cut short', async () => {
    const job = await runDownloadJob(service, { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE', width: 400 }, { type: 'CONVERT', format: 'JPG' })) });
    const item = job.successes.i0;
    const whole = (await fetchBytes(item.url)).bytes;
    expect(md5Hex(whole)).toBe(item.checksum);
    const middle = await fetchBytes(item.url, { range: 'bytes=100-199' });
    expect(middle.response.status).toBe(206);
    expect(middle.bytes.equals(whole.subarray(100, 200))).toBe(true);
    const key = new URL(item.url).pathname.split('/').at(-1) ?? '';
    truncateSync(join(service.dataDir, 'transforms', `${key}.jpg`), 10);
    const again = await fetchBytes(item.url);
    expect(again.response.status).toBe(200);
    expect(md5Hex(again.bytes)).toBe(item.checksum);
  });

  it('refuses a malformed description or an unknown preset when the job is created', async () => {
    const malformed = await service.api('POST', '/asset-download-batch-jobs', { items: items(jpegId), transformationDescription: custom(always({ type: 'RESIZE' })) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/RESIZE needs a width/);
    const format = await service.api('POST', '/asset-download-batch-jobs', { items: items(jpegId), transformationDescription: custom(always({ type: 'CONVERT', format: 'BMP' })) });
    expect(format.status).toBe(400);
    const unknown = await service.api('POST', '/asset-download-batch-jobs', { items: items(jpegId), transformationDescription: { type: 'PRESET', presetTransformationId: 'nope' } });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, makePdf, pixelAt, runDownloadJob } from '../../support/media-fixtures.js';

const SEEDED = ['web-1000-jpg', 'thumbnail-300-webp', 'print-tiff', 'social-1080-square'];
const ids = (results: { id: string }[]): string[] => results.map((preset) => preset.id);

describe('presets and saved crop areas', () => {
  let service: TestService;
  let jpegId: string;
  let pdfId: string;
  beforeAll(async () => {
    service = await startTestService();
    jpegId = (await uploadNewAsset(service, '/p/photo.jpg', await makeImage(1600, 1200, { box: { x: 100, y: 200, width: 300, height: 300 } }))).assetId;
    pdfId = (await uploadNewAsset(service, '/p/brief.pdf', await makePdf(1))).assetId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('groups the seeded presets by purpose', async () => {
    const { status, body } = await service.api('GET', '/grouped-preset-transformations');
    expect(status).toBe(200);
    const [purpose] = body.result.itemGroupTypes;
    expect(purpose).toMatchObject({ id: 'purpose', name: 'Purpose' });
    expect(purpose.groups.map((group: { name: string }) => group.name)).toEqual(['Web', 'Print', 'Social']);
    expect(ids(purpose.groups[0].items)).toEqual(['web-1000-jpg', 'thumbnail-300-webp']);
    expect(purpose.groups[0].items[1]).toMatchObject({ position: 1, groupId: 'web', accountId: expect.any(String), name: 'Thumbnail (300 px WEBP)' });
    expect(body.result.ungroupedItems).toEqual([]);
  });

  it('searches presets by applicability to assets and by transformation type', async () => {
    const search = async (criterion: unknown) => (await service.api('POST', '/preset-transformation-searches', { from: 0, pageSize: 50, criterion, sorts: [] })).body;
    expect(ids((await search({ type: 'APPLICABLE_FOR_ANY_ASSETS', assetIds: [jpegId] })).results)).toEqual(SEEDED);
    expect(await search({ type: 'APPLICABLE_FOR_ANY_ASSETS', assetIds: [pdfId, 'no-such-asset'] })).toEqual({ results: [], totalResults: 0 });
    expect(ids((await search({ type: 'HAS_TRANSFORMATION_OF_TYPE', transformationType: 'CROP' })).results)).toEqual(['social-1080-square']);
    expect(ids((await search({ type: 'AND', criteria: [{ type: 'HAS_TRANSFORMATION_OF_TYPE', transformationType: 'RESIZE' }, { type: 'NOT', criterion: { type: 'FIELD_EQUALS', field: 'GROUP_ID', value: 'web' } }] })).results)).toEqual(['social-1080-square']);
    const sorted = (await service.api('POST', '/preset-transformation-searches', { pageSize: 2, criterion: { type: 'MATCH_ALL' }, sorts: [{ field: 'NAME', order: 'ASC' }] })).body;
    expect(sorted).toMatchObject({ totalResults: 4, results: [{ name: 'Print (TIFF)' }, { name: 'Social (1080×1080 crop)' }] });
    const bad = await service.api('POST', '/preset-transformation-searches', { criterion: { type: 'HAS_TRANSFORMATION_OF_TYPE', transformationType: 'BLUR' }, sorts: [] });
    expect(bad.status).toBe(400);
  });

  it('refuses a preset search without criterion or sorts, as every search (API.md §1)', async () => {
    for (const [body, code] of [
      [{}, 'INVALID_CRITERION'],
      [{ criterion: null, sorts: [] }, 'INVALID_CRITERION'],
      [{ criterion: { type: 'MATCH_ALL' } }, 'INVALID_SORT'],
      [{ criterion: { type: 'MATCH_ALL' }, sorts: null }, 'INVALID_SORT'],
    ] as const) {
      const answer = await service.api('POST', '/preset-transformation-searches', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code, JSON.stringify(body)).toBe(code);
    }
    const all = await service.api('POST', '/preset-transformation-searches', { criterion: { type: 'MATCH_ALL' }, sorts: [] });
    expect(ids(all.body.results)).toEqual(SEEDED);
  });

  it('lists per asset the presets that would transform it', async () => {
    const { body } = await service.api('POST', '/preset-transformations-for-asset-searches', { assetIds: [jpegId, pdfId] });
    expect(body.totalResults).toBe(2);
    expect(body.results[0].assetId).toBe(jpegId);
    expect(ids(body.results[0].presetTransformations)).toEqual(SEEDED);
    expect(body.results[1]).toEqual({ assetId: pdfId, presetTransformations: [] });
  });

  it('the social preset covers 1080×1080', async () => {
    const job = await runDownloadJob(service, { items: [{ batchItemId: 's', assetId: jpegId, assetFileId: null }], transformationDescription: { type: 'PRESET', presetTransformationId: 'social-1080-square' } });
    expect(await sharp((await fetchBytes(job.successes.s.url)).bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1080 });
  });

  it('saves crop areas, changes only the fields a PATCH gives, and crops with one by id', async () => {
    const created = await service.api('POST', `/assets/${jpegId}/saved-crop-areas`, { name: 'face', x: 100, y: 200, width: 300, height: 300 });
    expect(created.status).toBe(200);
    const area = created.body.result;
    expect(area).toMatchObject({ id: expect.any(String), assetId: jpegId, name: 'face', x: 100, y: 200, width: 300, height: 300 });

    const renamed = await service.api('PATCH', `/asset-saved-crop-areas/${area.id}`, { name: 'portrait' });
    expect(renamed.body.result).toMatchObject({ name: 'portrait', x: 100, y: 200, width: 300, height: 300 });
    const moved = await service.api('PATCH', `/asset-saved-crop-areas/${area.id}`, { width: 200 });
    expect(moved.body.result).toMatchObject({ name: 'portrait', x: 100, y: 200, width: 200, height: 300 });
    expect((await service.api('GET', `/asset-saved-crop-areas/${area.id}`)).body.result).toMatchObject({ name: 'portrait', width: 200 });
    expect((await service.api('GET', `/assets/${jpegId}/saved-crop-areas`)).body).toMatchObject({ totalResults: 1, results: [{ result: { id: area.id } }] });

    const beyond = await service.api('PATCH', `/asset-saved-crop-areas/${area.id}`, { x: 1500 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toMatch(/beyond the image, which is 1600×1200/);

    const job = await runDownloadJob(service, {
      items: [{ batchItemId: 'c', assetId: jpegId, assetFileId: null }],
      transformationDescription: { type: 'CUSTOM', candidateTransformations: [{ criteria: { type: 'MATCH_ALL' }, transformation: { operations: [{ type: 'CROP', savedCropAreaId: area.id }, { type: 'CONVERT', format: 'PNG' }] } }] },
    });
    const { bytes } = await fetchBytes(job.successes.c.url);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 200, height: 300 });
    const [r, , b] = await pixelAt(bytes, 100, 150);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(40);

    expect((await service.api('DELETE', `/asset-saved-crop-areas/${area.id}`)).status).toBe(200);
    expect((await service.api('GET', `/asset-saved-crop-areas/${area.id}`)).status).toBe(404);
  });

  it('a saved crop area of another asset does not apply: the next candidate, or the original', async () => {
    const other = (await service.api('POST', `/assets/${jpegId}/saved-crop-areas`, { name: 'other', x: 0, y: 0, width: 10, height: 10 })).body.result;
    const job = await runDownloadJob(service, {
      items: [{ batchItemId: 'p', assetId: pdfId, assetFileId: null }],
      transformationDescription: { type: 'CUSTOM', candidateTransformations: [{ transformation: { operations: [{ type: 'CROP', savedCropAreaId: other.id }] } }] },
    });
    expect(job.successes.p).toMatchObject({ filename: 'brief.pdf', contentType: 'application/pdf' });
  });
});

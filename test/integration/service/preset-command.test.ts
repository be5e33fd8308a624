import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { cli } from '../../support/cli-runner.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, runDownloadJob } from '../../support/media-fixtures.js';

describe('asset-sync preset', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('lists the seeded presets', async () => {
    const listed = await cli(['preset', 'list', '--data', service.dataDir]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/web-1000-jpg\s+Web \(1000 px JPG\)\s+Web\s+resize 1000×1000 inside, JPG q82/);
    expect(listed.out.split('\n')).toHaveLength(4);
  });

  it('adds a preset while the service runs, which a download job can use at once, and removes it', async () => {
    const added = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'Banner', '--group', 'web', '--width', '640', '--height', '200', '--fit', 'cover', '--format', 'png']);
    expect(added).toMatchObject({ code: 0, out: expect.stringMatching(/^added preset "Banner" \(/) });
    const preset = JSON.parse((await cli(['preset', 'list', '--data', service.dataDir, '--json'])).out).find((entry: { name: string }) => entry.name === 'Banner');
    expect(preset).toMatchObject({ group: 'Web' });

    const grouped = await service.api('GET', '/grouped-preset-transformations');
    expect(grouped.body.result.itemGroupTypes[0].groups[0].items.map((item: { name: string }) => item.name)).toContain('Banner');
    const { assetId } = await uploadNewAsset(service, '/banner/source.jpg', await makeImage(1000, 1000));
    const job = await runDownloadJob(service, { items: [{ batchItemId: 'b', assetId, assetFileId: null }], transformationDescription: { type: 'PRESET', presetTransformationId: preset.id } });
    expect(await sharp((await fetchBytes(job.successes.b.url)).bytes).metadata()).toMatchObject({ format: 'png', width: 640, height: 200 });

    expect(await cli(['preset', 'remove', '--data', service.dataDir, '--name', 'banner'])).toMatchObject({ code: 0, out: 'removed preset "Banner"' });
    expect((await cli(['preset', 'list', '--data', service.dataDir])).out).not.toContain('Banner');
  });

  it('takes full candidate transformations as JSON, checked before anything is written', async () => {
    const candidates = JSON.stringify([{ criteria: { type: 'MEDIA_SUBTYPE_IN', subTypes: ['png'] }, transformation: { operations: [{ type: 'CONVERT', format: 'WEBP' }] } }]);
    expect((await cli(['preset', 'add', '--data', service.dataDir, '--name', 'PNG to WEBP', '--candidates', candidates])).code).toBe(0);
    const bad = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'Broken', '--candidates', '[{"transformation":{"operations":[{"type":"BLUR"}]}}]']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--candidates is not a list of candidate transformations: 0\.transformation\.operations\.0.*\[INVALID_INPUT\]/);
  });

  it('refuses what it cannot do, saying what would work', async () => {
    const same = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'web (1000 px jpg)', '--width', '10']);
    expect(same).toMatchObject({ code: 1, err: expect.stringContaining('[PRESET_EXISTS]') });
    const nothing = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'Empty']);
    expect(nothing.err).toContain('A preset needs --width/--height, --format, or --candidates JSON.');
    const group = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'X', '--width', '10', '--group', 'Video']);
    expect(group.err).toContain('the groups are Web, Print, Social');
    const format = await cli(['preset', 'add', '--data', service.dataDir, '--name', 'X', '--format', 'bmp']);
    expect(format.err).toContain('--format must be one of JPG, PNG, WEBP, AVIF, TIFF');
    expect(await cli(['preset', 'remove', '--data', service.dataDir, '--name', 'nope'])).toMatchObject({ code: 1, err: expect.stringContaining('[NO_SUCH_PRESET]') });
    expect((await cli(['preset', 'frobnicate', '--data', service.dataDir])).code).toBe(2);
  });
});

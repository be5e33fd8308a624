import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestService, type TestService } from '../../support/test-service.js';
import { MiB, downloadAsset, putPart, randomFile, uploadNewAsset } from '../../support/upload-helpers.js';
import { md5Hex, sha256Hex } from '../../support/checksums.js';

/** The digests are computed while parts land (upload-digests.ts); these follow them through HTTP. */
describe('upload digests through the API', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const openUpload = async (size: number, partSize?: number): Promise<{ assetId: string; upload: any }> => {
    const assetId = (await service.api('POST', '/assets-creations', { count: 1 })).body.results[0].result.id;
    const answer = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, path: '/digests.bin', size, ...(partSize === undefined ? {} : { partSize }) });
    expect(answer.status).toBe(200);
    return { assetId, upload: answer.body.result };
  };
  const complete = (assetId: string, uploadId: string, parts: { partNumber: number; eTag: string }[]) => service.api('POST', '/asset-upload-completions', { assetId, uploadId, parts });
  const slice = (bytes: Buffer, part: any): Buffer => bytes.subarray(part.byteRange.start, part.byteRange.end);

  it('digests parts PUT all at once in reverse order, the last one short', async () => {
    const bytes = randomFile(3 * 5 * MiB + 777);
    const { assetId, upload } = await openUpload(bytes.length, 5 * MiB);
    const answers = await Promise.all([...upload.parts].reverse().map((part: any) => putPart(part.url, slice(bytes, part))));
    const parts = [...upload.parts].reverse().map((part: any, index: number) => ({ partNumber: part.partNumber, eTag: answers[index]?.headers.get('etag') ?? '' }));
    for (const [index, part] of [...upload.parts].reverse().entries()) expect(parts[index]?.eTag).toBe(`"${md5Hex(slice(bytes, part))}"`);
    const done = await complete(assetId, upload.uploadId, parts);
    expect(done.status).toBe(200);
    expect(done.body.result.currentAssetFile).toMatchObject({ size: bytes.length, checksum: md5Hex(bytes), sha256: sha256Hex(bytes) });
    const { response } = await downloadAsset(service, assetId);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('uploads a 1-byte file, whose checksum is its one part\'s ETag', async () => {
    const bytes = Buffer.from([0x2a]);
    const { asset } = await uploadNewAsset(service, '/Tiny/one.bin', bytes);
    expect(asset.currentAssetFile).toMatchObject({ size: 1, checksum: md5Hex(bytes), sha256: sha256Hex(bytes) });
  });

  it('forgets the bytes of a part whose body broke off half-way, and takes the part sent again', async () => {
    const bytes = randomFile(2 * 5 * MiB);
    const { assetId, upload } = await openUpload(bytes.length, 5 * MiB);
    const [first, second] = upload.parts;
    const sentFirst = await putPart(first.url, slice(bytes, first));
    expect(sentFirst.status).toBe(200);
    // Part 2 is next in line for the whole-file digest: 3 MiB of other bytes land, then the body breaks.
    const broken = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(randomFile(3 * MiB));
        await sleep(300);
        controller.error(new Error('client went away'));
      },
    });
    await fetch(second.url, { method: 'PUT', body: broken, duplex: 'half' }).catch(() => undefined);
    let sentSecond = await putPart(second.url, slice(bytes, second));
    // The broken PUT may still be winding down on the service.
    for (let attempt = 0; sentSecond.status === 409 && attempt < 50; attempt++) {
      await sleep(100);
      sentSecond = await putPart(second.url, slice(bytes, second));
    }
    expect(sentSecond.status).toBe(200);
    const done = await complete(assetId, upload.uploadId, [
      { partNumber: 1, eTag: sentFirst.headers.get('etag') ?? '' },
      { partNumber: 2, eTag: sentSecond.headers.get('etag') ?? '' },
    ]);
    expect(done.status).toBe(200);
    expect(done.body.result.currentAssetFile).toMatchObject({ checksum: md5Hex(bytes), sha256: sha256Hex(bytes) });
  });

  it('answers 404 UPLOAD_EXPIRED to a part whose upload is discarded while it arrives', async () => {
    const bytes = randomFile(6 * MiB);
    const { assetId, upload } = await openUpload(bytes.length);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, 3 * MiB));
        await released;
        controller.enqueue(bytes.subarray(3 * MiB));
        controller.close();
      },
    });
    const arriving = fetch(upload.parts[0].url, { method: 'PUT', body: slow, duplex: 'half' });
    await sleep(300);
    expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
    release();
    const answer = await arriving;
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as any).code).toBe('UPLOAD_EXPIRED');
  });
});

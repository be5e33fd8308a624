import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { MiB, downloadAsset, putPart, randomFile, sendParts, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { fakeClock } from '../../support/test-users.js';
import { md5Hex, md5Base64, sha256Hex } from '../../support/checksums.js';

/** PUTs the chunks as a stream, so the request has no Content-Length (chunked transfer encoding). */
function streamPart(url: string, chunks: Buffer[]): Promise<Response> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return fetch(url, { method: 'PUT', body, duplex: 'half', headers: { 'content-type': 'application/octet-stream' } });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as any;
  expect(body).toMatchObject({ status: response.status, error: expect.any(String), path: expect.stringMatching(/^\//), timestamp: expect.any(String) });
  return { status: response.status, code: body.code, message: body.message };
}

describe('upload edge cases', () => {
  const clock = fakeClock();
  let service: TestService;
  beforeAll(async () => {
    // Short signed URLs, so expiry can be reached without expiring the admin's token.
    service = await startTestService({ signedUrlTtl: 60 }, { clock });
  });
  afterAll(async () => {
    await service.dispose();
  });

  const emptyAsset = async (): Promise<string> => (await service.api('POST', '/assets-creations', { count: 1 })).body.results[0].result.id;
  /** POST /asset-uploads for a new empty asset. */
  const openUpload = async (item: Record<string, unknown>): Promise<{ assetId: string; status: number; body: any }> => {
    const assetId = await emptyAsset();
    const answer = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, path: '/edge.bin', ...item });
    return { assetId, status: answer.status, body: answer.body };
  };
  const complete = (assetId: string, uploadId: string, parts: unknown) => service.api('POST', '/asset-upload-completions', { assetId, uploadId, parts });
  const assetCount = (): number => service.running.ctx.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM assets').get()?.n ?? -1;

  describe('INVALID_PART_LAYOUT', () => {
    it.each([
      ['a multi-part file under 5 MiB', { size: 4 * MiB, partSize: MiB }, 'under 5 MiB'],
      ['a part size under 5 MiB for a multipart file', { size: 12 * MiB, partSize: 4 * MiB }, '5 MiB minimum'],
      ['more than 10,000 parts', { size: 10_001 * 5 * MiB, partSize: 5 * MiB }, '10000'],
      ['a part number beyond the count', { size: 1000, partUrlsRequest: { urlRequests: [{ partNumber: 2 }] } }, 'beyond'],
      ['the same part requested twice', { size: 12 * MiB, partSize: 6 * MiB, partUrlsRequest: { urlRequests: [{ partNumber: 1 }, { partNumber: 1 }] } }, 'twice'],
    ])('refuses %s', async (_what, item, reason) => {
      const before = assetCount();
      const { status, body } = await openUpload(item);
      expect(status).toBe(400);
      expect(body.code).toBe('INVALID_PART_LAYOUT');
      expect(body.message).toContain(reason);
      expect(assetCount()).toBe(before + 1); // only the empty asset this test made
    });

    it('accepts the limits themselves', async () => {
      const tenThousand = await openUpload({ size: 10_000 * 5 * MiB, partSize: 5 * MiB, partUrlsRequest: { urlRequests: [{ partNumber: 10_000 }] } });
      expect(tenThousand.status).toBe(200);
      expect(tenThousand.body.result.parts).toEqual([
        { partNumber: 10_000, url: expect.any(String), byteRange: { start: 9_999 * 5 * MiB, end: 10_000 * 5 * MiB } },
      ]);
      const smallLast = await openUpload({ size: 10 * MiB + 1, partSize: 5 * MiB });
      expect(smallLast.body.result.parts.map((part: any) => part.byteRange.end - part.byteRange.start)).toEqual([5 * MiB, 5 * MiB, 1]);
    });

    it('refuses a resume that declares another size or part size', async () => {
      const { assetId, body } = await openUpload({ size: 12 * MiB, partSize: 6 * MiB });
      const uploadId = body.result.uploadId;
      for (const change of [{ size: 12 * MiB + 1, partSize: 6 * MiB }, { size: 12 * MiB, partSize: 5 * MiB }]) {
        const resumed = await service.api('POST', '/asset-uploads', { assetId, ...change, partUrlsRequest: { uploadId, urlRequests: [{ partNumber: 2 }] } });
        expect(resumed.status).toBe(400);
        expect(resumed.body.code).toBe('INVALID_PART_LAYOUT');
      }
      const same = await service.api('POST', '/asset-uploads', { assetId, size: 12 * MiB, partSize: 6 * MiB, partUrlsRequest: { uploadId, urlRequests: [{ partNumber: 2 }] } });
      expect(same.status).toBe(200);
      expect(same.body.result).toMatchObject({ uploadId, parts: [{ partNumber: 2, byteRange: { start: 6 * MiB, end: 12 * MiB } }] });
    });

    it('reports a bad layout in a batch job as that item\'s failure, creating no asset for it', async () => {
      const before = assetCount();
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', {
        items: [
          { batchItemId: 'bad', path: '/bad.bin', size: 4 * MiB, partSize: MiB },
          { batchItemId: 'good', path: '/good.bin', size: 10 },
        ],
      });
      const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
      expect(job.state).toBe('COMPLETED');
      expect(job.failures.bad).toMatchObject({ status: 400, code: 'INVALID_PART_LAYOUT' });
      expect(Object.keys(job.successes)).toEqual(['good']);
      expect(assetCount()).toBe(before + 1);
    });
  });

  describe('part PUTs', () => {
    it('refuses a part with the wrong number of bytes and does not count it', async () => {
      const bytes = randomFile(1000);
      const { assetId, body } = await openUpload({ size: 1000 });
      const { url } = body.result.parts[0];
      for (const attempt of [
        () => putPart(url, bytes.subarray(0, 999)),
        () => putPart(url, Buffer.concat([bytes, Buffer.from('!')])),
        () => putPart(url, Buffer.alloc(0)),
        () => streamPart(url, [bytes.subarray(0, 500), bytes.subarray(500, 999)]),
        () => streamPart(url, [bytes, Buffer.from('!')]),
      ]) {
        const answer = await errorOf(await attempt());
        expect(answer).toMatchObject({ status: 400, code: 'INVALID_PART_SIZE' });
      }
      const early = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: md5Hex(bytes) }]);
      expect(early.status).toBe(409);
      expect(early.body.code).toBe('UPLOAD_INCOMPLETE');

      const good = await streamPart(url, [bytes.subarray(0, 100), bytes.subarray(100)]);
      expect(good.status).toBe(200);
      expect(good.headers.get('etag')).toBe(`"${md5Hex(bytes)}"`);
      const done = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: good.headers.get('etag') }]);
      expect(done.status).toBe(200);
      expect(done.body.result.currentAssetFile).toMatchObject({ size: 1000, checksum: md5Hex(bytes), sha256: sha256Hex(bytes) });
    });

    it('refuses a large part with the wrong size before reading it, and the connection stays usable', async () => {
      const bytes = randomFile(10 * MiB);
      const { body } = await openUpload({ size: bytes.length, partSize: 5 * MiB });
      const [first, second] = body.result.parts;
      expect(await errorOf(await putPart(first.url, bytes.subarray(0, 6 * MiB)))).toMatchObject({ status: 400, code: 'INVALID_PART_SIZE' });
      expect(await errorOf(await streamPart(first.url, [bytes.subarray(0, 3 * MiB), bytes.subarray(0, 3 * MiB)]))).toMatchObject({ status: 400, code: 'INVALID_PART_SIZE' });
      // Before the fix, the half-read body stayed on a kept-alive connection and the next PUT on it hung.
      const again = (url: string, part: Buffer) => fetch(url, { method: 'PUT', body: part, signal: AbortSignal.timeout(10_000) });
      expect((await again(second.url, bytes.subarray(5 * MiB))).status).toBe(200);
      expect((await again(first.url, bytes.subarray(0, 5 * MiB))).status).toBe(200);
    });

    it('checks a requested Content-MD5', async () => {
      const bytes = randomFile(2000);
      const { assetId, body } = await openUpload({ size: 2000, partUrlsRequest: { urlRequests: [{ partNumber: 1, contentMd5: md5Base64(bytes) }] } });
      const { url } = body.result.parts[0];
      const other = randomFile(2000);
      const cases: [string, Buffer, Record<string, string>][] = [
        ['no Content-MD5', bytes, {}],
        ['another Content-MD5', bytes, { 'content-md5': md5Base64(other) }],
        ['bytes that do not match it', other, { 'content-md5': md5Base64(bytes) }],
      ];
      for (const [what, sent, headers] of cases) {
        const answer = await errorOf(await putPart(url, sent, headers));
        expect(answer, what).toMatchObject({ status: 400, code: 'BAD_DIGEST' });
      }
      expect((await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: md5Hex(other) }])).body.code).toBe('UPLOAD_INCOMPLETE');
      const good = await putPart(url, bytes, { 'content-md5': md5Base64(bytes) });
      expect(good.status).toBe(200);
      const done = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: good.headers.get('etag') }]);
      expect(done.body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
    });

    it('refuses tampered part URLs with 403 INVALID_SIGNATURE', async () => {
      const bytes = randomFile(12 * MiB);
      const { body } = await openUpload({ size: bytes.length, partSize: 6 * MiB, partUrlsRequest: { urlRequests: [{ partNumber: 1 }, { partNumber: 2, contentMd5: md5Base64(bytes.subarray(6 * MiB)) }] } });
      const [first, second] = body.result.parts;
      const part = bytes.subarray(0, 6 * MiB);
      const url = new URL(first.url);
      const signature = url.searchParams.get('signature') ?? '';
      const flipped = `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`;
      const variants: [string, (target: URL) => void][] = [
        ['a changed signature', (target) => target.searchParams.set('signature', flipped)],
        ['no signature', (target) => target.searchParams.delete('signature')],
        ['a later expiry', (target) => target.searchParams.set('expires', String(Number(target.searchParams.get('expires')) + 3600))],
        ['another part number', (target) => (target.pathname = target.pathname.replace(/\/1$/, '/2'))],
        ['another upload', (target) => (target.pathname = target.pathname.replace(/upload-parts\/[^/]+/, 'upload-parts/abcdef'))],
        ['an added Content-MD5 binding', (target) => target.searchParams.set('md5', md5Base64(part))],
      ];
      for (const [what, change] of variants) {
        const target = new URL(url);
        change(target);
        const answer = await errorOf(await putPart(target.toString(), part));
        expect(answer, what).toMatchObject({ status: 403, code: 'INVALID_SIGNATURE' });
      }
      const unbound = new URL(second.url);
      unbound.searchParams.delete('md5');
      expect(await errorOf(await putPart(unbound.toString(), bytes.subarray(6 * MiB)))).toMatchObject({ status: 403, code: 'INVALID_SIGNATURE' });
      expect((await putPart(first.url, part)).status).toBe(200);
    });

    it('refuses an expired part URL with 403 SIGNED_URL_EXPIRED; a resume gives a fresh one', async () => {
      const bytes = randomFile(300);
      const { assetId, body } = await openUpload({ size: 300 });
      clock.advance(61_000);
      expect(await errorOf(await putPart(body.result.parts[0].url, bytes))).toMatchObject({ status: 403, code: 'SIGNED_URL_EXPIRED' });
      const fresh = await service.api('POST', '/asset-uploads', { assetId, size: 300, partUrlsRequest: { uploadId: body.result.uploadId } });
      expect(new Date(fresh.body.result.expiresAt).getTime()).toBe(Math.floor((clock.now() + 60_000) / 1000) * 1000);
      const parts = await sendParts(fresh.body.result, bytes);
      expect((await complete(assetId, body.result.uploadId, parts)).body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
    });

    it('replaces a part that is PUT again, digest and all', async () => {
      const first = randomFile(4000);
      const second = randomFile(4000);
      const { assetId, body } = await openUpload({ size: 4000 });
      const { url } = body.result.parts[0];
      const old = await putPart(url, first);
      expect(old.status).toBe(200);
      await sleep(200); // let the running whole-file digest take in the first bytes
      const replaced = await putPart(url, second);
      expect(replaced.headers.get('etag')).toBe(`"${md5Hex(second)}"`);
      const stale = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: old.headers.get('etag') }]);
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe('UPLOAD_ETAG_MISMATCH');
      const done = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: replaced.headers.get('etag') }]);
      expect(done.status).toBe(200);
      expect(done.body.result.currentAssetFile).toMatchObject({ checksum: md5Hex(second), sha256: sha256Hex(second) });
      const { response } = await downloadAsset(service, assetId);
      expect(Buffer.from(await response.arrayBuffer()).equals(second)).toBe(true);
    });

    it('replaces the first part of a multipart upload after later parts arrived', async () => {
      const bytes = randomFile(10 * MiB + 5);
      const { assetId, body } = await openUpload({ size: bytes.length, partSize: 5 * MiB });
      await sendParts(body.result, randomFile(bytes.length)); // every part with the wrong bytes first
      await sleep(200);
      const parts = await sendParts({ parts: [body.result.parts[0]] }, bytes);
      const rest = await sendParts({ parts: body.result.parts.slice(1) }, bytes);
      const done = await complete(assetId, body.result.uploadId, [...parts, ...rest]);
      expect(done.body.result.currentAssetFile).toMatchObject({ checksum: md5Hex(bytes), sha256: sha256Hex(bytes) });
    });

    it('refuses a second PUT of a part, and a completion, while the part is arriving', async () => {
      const bytes = randomFile(MiB);
      const { assetId, body } = await openUpload({ size: bytes.length });
      const { url } = body.result.parts[0];
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const slow = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(bytes.subarray(0, 1000));
          await released;
          controller.enqueue(bytes.subarray(1000));
          controller.close();
        },
      });
      const first = fetch(url, { method: 'PUT', body: slow, duplex: 'half' });
      const file = join(service.dataDir, 'uploads', `${body.result.uploadId}.upload`);
      for (let waited = 0; !existsSync(file) && waited < 5000; waited += 10) await sleep(10);

      const second = await putPart(url, bytes);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(await errorOf(second)).toMatchObject({ status: 409, code: 'PART_UPLOAD_IN_PROGRESS' });
      const early = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: md5Hex(bytes) }]);
      expect(early.status).toBe(409);
      release();
      const done = await first;
      expect(done.status).toBe(200);
      const completed = await complete(assetId, body.result.uploadId, [{ partNumber: 1, eTag: done.headers.get('etag') }]);
      expect(completed.body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
    });

    it('refuses parts of a completed upload', async () => {
      const bytes = randomFile(50);
      const { assetId, body } = await openUpload({ size: 50 });
      const parts = await sendParts(body.result, bytes);
      expect((await complete(assetId, body.result.uploadId, parts)).status).toBe(200);
      expect(await errorOf(await putPart(body.result.parts[0].url, bytes))).toMatchObject({ status: 409, code: 'UPLOAD_ALREADY_COMPLETED' });
    });
  });

  describe('completion', () => {
    it('refuses a wrong eTag with 409 UPLOAD_ETAG_MISMATCH and a wrong part list with 400', async () => {
      const bytes = randomFile(12 * MiB);
      const { assetId, body } = await openUpload({ size: bytes.length, partSize: 6 * MiB });
      const parts = await sendParts(body.result, bytes);
      const wrong = await complete(assetId, body.result.uploadId, [parts[0], { partNumber: 2, eTag: md5Hex(bytes) }]);
      expect(wrong.status).toBe(409);
      expect(wrong.body).toMatchObject({ code: 'UPLOAD_ETAG_MISMATCH', path: '/asset-upload-completions' });
      expect(wrong.body.message).toContain('part 2');
      for (const list of [[parts[0]], [parts[0], parts[0]], [parts[0], parts[1], { partNumber: 3, eTag: 'x' }]]) {
        const answer = await complete(assetId, body.result.uploadId, list);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('INVALID_PART_LAYOUT');
      }
      const otherAsset = await emptyAsset();
      expect((await complete(otherAsset, body.result.uploadId, parts)).body.code).toBe('NOT_FOUND');
      // Quoted, weak or upper-case eTags are the same eTag.
      const done = await complete(assetId, body.result.uploadId, [{ partNumber: 2, eTag: `W/${parts[1]?.eTag.toUpperCase()}` }, parts[0]]);
      expect(done.status).toBe(200);
      expect(done.body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
    });
  });

  it('uploads and downloads a 0-byte file', async () => {
    const { assetId, asset } = await uploadNewAsset(service, '/Empty/nothing.txt', Buffer.alloc(0));
    expect(asset.currentAssetFile).toMatchObject({ size: 0, checksum: md5Hex(Buffer.alloc(0)), sha256: sha256Hex(Buffer.alloc(0)), filename: 'nothing.txt', mediaType: { type: 'text', subType: 'plain' }, previewUrl: null });
    const { item, response } = await downloadAsset(service, assetId);
    expect(item).toMatchObject({ size: 0, checksum: md5Hex(Buffer.alloc(0)) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('0');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  describe('new versions through /asset-upload-batch-jobs', () => {
    it('adds a version per item and reports unknown assets as failures', async () => {
      const v1 = randomFile(1500);
      const { assetId, asset } = await uploadNewAsset(service, '/Versions/report.pdf.bin', v1);
      const v2 = randomFile(2500);
      const created = await service.api('POST', '/asset-upload-batch-jobs', {
        items: [
          { batchItemId: 'v2', assetId, assetFileId: null, size: v2.length },
          { batchItemId: 'ghost', assetId: '00000000-0000-4000-8000-000000000000', assetFileId: null, size: 10 },
        ],
      });
      expect(created.status).toBe(200);
      expect(created.body.result.type).toBe('AssetUploadBatchJob');
      const job = await waitForJob(service, '/asset-upload-batch-jobs', created.body.result.id);
      expect(job.failures.ghost).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      const { upload } = job.successes.v2;
      expect(job.successes.v2.assetId).toBe(assetId);
      expect(upload).toMatchObject({ assetId, assetFileId: null, size: 2500 });
      const parts = await sendParts(upload, v2);
      const done = await complete(assetId, upload.uploadId, parts);
      expect(done.body.result.currentAssetFile).toMatchObject({ filename: 'report.pdf.bin', size: 2500, checksum: md5Hex(v2) });
      expect(done.body.result.currentAssetFile.id).not.toBe(asset.currentAssetFile.id);
      expect(done.body.result.lifecycleStatus.state).toBe('STAGED');
      const files = await service.api('GET', `/assets/${assetId}/files`);
      expect(files.body.results.map((entry: any) => entry.result.checksum)).toEqual([md5Hex(v2), md5Hex(v1)]);
    });

    it('replaces the bytes of a named file in place and drops the blob nothing uses any more', async () => {
      const v1 = randomFile(900);
      const { assetId, asset } = await uploadNewAsset(service, '/Versions/replace.bin', v1);
      const v2 = randomFile(950);
      const upload = await service.api('POST', '/asset-uploads', { assetId, assetFileId: asset.currentAssetFile.id, size: v2.length });
      expect(upload.body.result.assetFileId).toBe(asset.currentAssetFile.id);
      const done = await complete(assetId, upload.body.result.uploadId, await sendParts(upload.body.result, v2));
      expect(done.body.result.currentAssetFile).toMatchObject({ id: asset.currentAssetFile.id, checksum: md5Hex(v2), size: 950 });
      expect((await service.api('GET', `/assets/${assetId}/files`)).body.totalResults).toBe(1);
      const blob = (sha: string): string => service.running.blobs.pathOf(sha);
      expect(existsSync(blob(sha256Hex(v2)))).toBe(true);
      expect(existsSync(blob(sha256Hex(v1)))).toBe(false);
    });
  });

  it('discards an upload of new bytes for a file version that is deleted meanwhile', async () => {
    const v1 = randomFile(600);
    const { assetId, asset } = await uploadNewAsset(service, '/Versions/gone.bin', v1);
    const v2 = randomFile(700);
    const second = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, size: v2.length });
    await complete(assetId, second.body.result.uploadId, await sendParts(second.body.result, v2));
    const v3 = randomFile(800);
    const replacing = await service.api('POST', '/asset-uploads', { assetId, assetFileId: asset.currentAssetFile.id, size: v3.length });
    expect(replacing.status).toBe(200);
    const upload = replacing.body.result;
    const parts = await sendParts({ parts: upload.parts }, v3);

    expect((await service.api('DELETE', `/asset-files/${asset.currentAssetFile.id}`)).status).toBe(200);
    const late = await complete(assetId, upload.uploadId, parts);
    expect(late.status).toBe(404);
    expect(late.body.code).toBe('NOT_FOUND');
    expect(await errorOf(await putPart(upload.parts[0].url, v3))).toMatchObject({ status: 404, code: 'UPLOAD_EXPIRED' });
    expect(readdirSync(join(service.dataDir, 'uploads'))).not.toContain(`${upload.uploadId}.upload`);
    // The asset keeps its current file.
    const after = await service.api('GET', `/assets/${assetId}`);
    expect(after.body.result.currentAssetFile).toMatchObject({ checksum: md5Hex(v2), size: 700 });
    expect((await service.api('GET', `/assets/${assetId}/files`)).body.totalResults).toBe(1);
  });

  describe('images', () => {
    it('describes a PNG and serves a working preview', async () => {
      const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
      const { asset } = await uploadNewAsset(service, '/Images/blue.png', png);
      const file = asset.currentAssetFile;
      expect(file).toMatchObject({ fileType: 'IMAGE', mediaType: { type: 'image', subType: 'png' }, dimensions: { width: 40, height: 30 }, previewUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/previews\/[0-9a-f]{64}\.png\?/) });
      const preview = await fetch(file.previewUrl);
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await preview.arrayBuffer()).equals(png)).toBe(true);
      const tampered = new URL(file.previewUrl);
      // Another blob's preview under this signature.
      tampered.pathname = tampered.pathname.replace(/[0-9a-f]{64}/, '0'.repeat(64));
      expect(await errorOf(await fetch(tampered))).toMatchObject({ status: 403, code: 'INVALID_SIGNATURE' });
    });

    it('describes and previews a PNG its PUT completed, kept inline', async () => {
      const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 20, b: 20 } } }).png().toBuffer();
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'one', path: '/Images/inline.png', size: png.length }] });
      const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
      const put = await putPart(job.successes.one.upload.parts[0].url, png, { 'asset-sync-complete': '?1' });
      const file = ((await put.json()) as any).result.currentAssetFile;
      expect(service.running.blobs.source(file.sha256)).toEqual({ bytes: png });
      expect(file).toMatchObject({ fileType: 'IMAGE', mediaType: { type: 'image', subType: 'png' }, dimensions: { width: 24, height: 16 } });
      expect(Buffer.from(await (await fetch(file.previewUrl)).arrayBuffer()).equals(png)).toBe(true);
    });

    it('sniffs the type from the bytes and reports rotated JPEG dimensions as shown', async () => {
      const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 0, g: 0, b: 0 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
      const { asset } = await uploadNewAsset(service, '/Images/sideways.bin', jpeg);
      expect(asset.currentAssetFile).toMatchObject({ fileType: 'IMAGE', mediaType: { type: 'image', subType: 'jpeg' }, dimensions: { width: 300, height: 400 } });
      // Its thumbnail is turned upright.
      const thumbnail = await sharp(Buffer.from(await (await fetch(`${asset.currentAssetFile.previewUrl}&size=256`)).arrayBuffer())).metadata();
      expect(thumbnail).toMatchObject({ width: 192, height: 256 });
    });
  });
});

describe('abandoned uploads', () => {
  const clock = fakeClock();
  let service: TestService;
  beforeAll(async () => {
    // With a 1-second quiet period the sweeper runs every second (of real time).
    service = await startTestService({ uploadAbandonAfter: 1 }, { clock });
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('sweeps an upload after uploadAbandonAfter without activity, with its bytes', async () => {
    const bytes = randomFile(10 * MiB);
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'a', path: '/abandoned.bin', size: bytes.length, partSize: 5 * MiB }] });
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
    const { assetId, upload } = job.successes.a;
    const [first] = await sendParts({ parts: [upload.parts[0]] }, bytes);
    const file = join(service.dataDir, 'uploads', `${upload.uploadId}.upload`);
    expect(existsSync(file)).toBe(true);
    await sleep(1500);
    expect(existsSync(file)).toBe(true); // no time has passed on the service's clock

    clock.advance(2000);
    const fresh = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'f', path: '/fresh.bin', size: 10 }] });
    const active = (await waitForJob(service, '/asset-and-upload-batch-jobs', fresh.body.result.id)).successes.f;
    for (let waited = 0; existsSync(file) && waited < 5000; waited += 100) await sleep(100);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(service.dataDir, 'uploads'))).not.toContain(`${upload.uploadId}.upload`);

    for (const part of upload.parts) {
      const answer = await errorOf(await putPart(part.url, bytes.subarray(part.byteRange.start, part.byteRange.end)));
      expect(answer).toMatchObject({ status: 404, code: 'UPLOAD_EXPIRED' });
    }
    expect((await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: [first, { partNumber: 2, eTag: 'x' }] })).status).toBe(404);
    // The upload created after the clock moved is still there.
    const small = randomFile(10);
    const done = await service.api('POST', '/asset-upload-completions', { assetId: active.assetId, uploadId: active.upload.uploadId, parts: await sendParts(active.upload, small) });
    expect(done.body.result.currentAssetFile.checksum).toBe(md5Hex(small));
  });

  it('forgets a completed upload as long after its last activity; the asset keeps its file', async () => {
    const bytes = randomFile(10);
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'c', path: '/completed.bin', size: bytes.length }] });
    const { assetId, upload } = (await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.c;
    const completion = { assetId, uploadId: upload.uploadId, parts: await sendParts(upload, bytes) };
    expect((await service.api('POST', '/asset-upload-completions', completion)).status).toBe(200);
    await sleep(1500);
    // Kept while it is recent: a repeated completion answers the same.
    expect((await service.api('POST', '/asset-upload-completions', completion)).status).toBe(200);

    clock.advance(2000);
    const records = service.running.ctx.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM uploads WHERE upload_id = ?');
    for (let waited = 0; (records.get(upload.uploadId)?.n ?? 0) > 0 && waited < 5000; waited += 100) await sleep(100);
    expect(records.get(upload.uploadId)?.n).toBe(0);
    expect((await service.api('POST', '/asset-upload-completions', completion)).status).toBe(404);
    expect((await service.api('GET', `/assets/${assetId}`)).body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
  });
});

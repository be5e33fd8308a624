import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/test-service.js';
import { MiB, downloadAsset, putPart, randomFile, sendParts, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { fakeClock } from '../../support/test-users.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { md5Hex, sha256Hex } from '../../support/checksums.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('asset routes', () => {
  const clock = fakeClock();
  let service: TestService;
  let accountId: string;
  beforeAll(async () => {
    service = await startTestService({}, { clock });
    const account = service.running.ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (account === undefined) throw new Error('no local account');
    accountId = account.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  const blobPath = (sha256: string): string => service.running.blobs.pathOf(sha256);
  const expectError = (answer: { status: number; body: any }, status: number, code: string, path?: string): void => {
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ status, code, error: expect.any(String), message: expect.any(String), timestamp: expect.any(String) });
    if (path !== undefined) expect(answer.body.path).toBe(path);
  };
  const fieldIdByName = async (name: string): Promise<string> => {
    const { body } = await service.api('GET', '/fields');
    const field = body.find((entry: any) => entry.name === name);
    if (field === undefined) throw new Error(`no field ${name}`);
    return field.id;
  };
  const newOption = (fieldId: string, value: string): string =>
    service.running.ctx.fieldOptions.create({ account_id: accountId, field_id: fieldId, parent_id: null, value }).id;

  it('gets an asset with its current file, metadata, lifecycle and the caller\'s actions', async () => {
    const bytes = randomFile(3000);
    const { assetId } = await uploadNewAsset(service, '/Get/one.bin', bytes);
    const { status, body } = await service.api('GET', `/assets/${assetId}`);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      id: assetId,
      accountId,
      currentAssetFile: { assetId, filename: 'one.bin', size: 3000, checksum: md5Hex(bytes), fileType: 'OTHER', dimensions: null, previewUrl: null },
      lifecycleStatus: { state: 'STAGED', dateStaged: expect.any(String), datePendingApproval: null, dateLive: null },
      dateLastModified: new Date(clock.now()).toISOString(),
    });
    expect(body.permittedActions).toEqual(
      ['VIEW', 'EDIT', 'DELETE', 'DOWNLOAD', 'UPLOAD'].map((action) => ({ resourceType: 'ASSET', resourceId: assetId, action })),
    );
  });

  describe('PATCH metadata', () => {
    let assetId: string;
    let foldersId: string;
    let keywordsId: string;
    let statusId: string;
    let draft: string;
    let approved: string;
    beforeAll(async () => {
      ({ assetId } = await uploadNewAsset(service, '/Brand/patch.bin', randomFile(100)));
      foldersId = await fieldIdByName('Folders');
      keywordsId = await fieldIdByName('Keywords');
      const created = await service.api('POST', '/fields', { name: 'Status', hasFixedOptions: true, multiValue: false });
      expect(created.status).toBe(200);
      statusId = created.body.result.id;
      draft = newOption(statusId, 'Draft');
      approved = newOption(statusId, 'Approved');
    });

    it('replaces the values of the listed fields and keeps the others', async () => {
      const before = (await service.api('GET', `/assets/${assetId}`)).body.result;
      const folder = before.metadata.values[foldersId];
      expect(folder).toHaveLength(1);

      clock.advance(5000);
      const first = await service.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [keywordsId]: ['sun', 'sea'], [statusId]: [draft] } } });
      expect(first.status).toBe(200);
      expect(first.body.result.metadata.values).toEqual({ [foldersId]: folder, [keywordsId]: ['sun', 'sea'], [statusId]: [draft] });
      expect(first.body.result.dateLastModified).toBe(new Date(clock.now()).toISOString());
      expect(first.body.result.dateLastModified > before.dateLastModified).toBe(true);
      expect(first.body.permittedActions).toContainEqual({ resourceType: 'ASSET', resourceId: assetId, action: 'EDIT' });

      const second = await service.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [keywordsId]: ['sand'] } } });
      expect(second.body.result.metadata.values).toEqual({ [foldersId]: folder, [keywordsId]: ['sand'], [statusId]: [draft] });

      const third = await service.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [statusId]: [approved], [keywordsId]: [] } } });
      expect(third.body.result.metadata.values).toEqual({ [foldersId]: folder, [statusId]: [approved] });
      // What the PATCH answered is what is stored.
      expect((await service.api('GET', `/assets/${assetId}`)).body.result.metadata.values).toEqual(third.body.result.metadata.values);
    });

    it('refuses values that do not fit their field, changing nothing', async () => {
      const before = (await service.api('GET', `/assets/${assetId}`)).body.result;
      const folderOption = before.metadata.values[foldersId][0];
      const cases: [string, Record<string, string[]>][] = [
        ['an option of another field', { [statusId]: [folderOption] }],
        ['an id that is no option', { [statusId]: ['not-an-option'] }],
        ['two values for a single-value field', { [statusId]: [draft, approved] }],
        ['an unknown field', { [UNKNOWN_ID]: ['x'] }],
        ['a valid change next to an invalid one', { [keywordsId]: ['changed'], [statusId]: ['nope'] }],
      ];
      for (const [what, values] of cases) {
        const answer = await service.api('PATCH', `/assets/${assetId}`, { metadata: { values } });
        expect(answer.status, what).toBe(400);
        expect(answer.body.code, what).toBe('INVALID_FIELD_VALUE');
        expect(answer.body.path).toBe(`/assets/${assetId}`);
      }
      const after = (await service.api('GET', `/assets/${assetId}`)).body.result;
      expect(after.metadata.values).toEqual(before.metadata.values);
      expect(after.dateLastModified).toBe(before.dateLastModified);
    });

    it('leaves dateLastModified alone when a PATCH changes nothing', async () => {
      const before = (await service.api('GET', `/assets/${assetId}`)).body.result;
      clock.advance(4000);
      for (const body of [{}, { metadata: { values: {} } }, { unknownProperty: 1 }]) {
        const answer = await service.api('PATCH', `/assets/${assetId}`, body);
        expect(answer.status).toBe(200);
        expect(answer.body.result).toEqual(before);
      }
    });

    it('refuses a malformed metadata body with 400 INVALID_BODY', async () => {
      for (const body of [{ metadata: { values: { [keywordsId]: 'sun' } } }, { metadata: { values: { [keywordsId]: [42] } } }, { metadata: 'x' }, { filename: 42 }]) {
        expectError(await service.api('PATCH', `/assets/${assetId}`, body), 400, 'INVALID_BODY');
      }
    });
  });

  describe('PATCH filename', () => {
    it('renames the current file without new bytes, NFC-normalised', async () => {
      const bytes = randomFile(2048);
      const { assetId, asset } = await uploadNewAsset(service, '/Rename/old name.bin', bytes);
      const file = asset.currentAssetFile;
      clock.advance(7000);
      const decomposed = 'Cafe\u0301 menu.bin';
      const renamed = await service.api('PATCH', `/assets/${assetId}`, { filename: decomposed });
      expect(renamed.status).toBe(200);
      const current = renamed.body.result.currentAssetFile;
      expect(current.filename).toBe('Caf\u00e9 menu.bin');
      expect(current).toMatchObject({ id: file.id, size: 2048, checksum: file.checksum, sha256: file.sha256, dateAdded: file.dateAdded });
      expect(renamed.body.result.dateLastModified).toBe(new Date(clock.now()).toISOString());

      const files = await service.api('GET', `/assets/${assetId}/files`);
      expect(files.body.results.map((entry: any) => [entry.result.id, entry.result.filename])).toEqual([[file.id, 'Caf\u00e9 menu.bin']]);
      const { item, response } = await downloadAsset(service, assetId);
      expect(item).toMatchObject({ filename: 'Caf\u00e9 menu.bin', checksum: md5Hex(bytes) });
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('refuses names that are not a single valid name, keeping the old one', async () => {
      const { assetId } = await uploadNewAsset(service, '/Rename/keep.bin', randomFile(10));
      const cases: [string, string, string][] = [
        ['a slash', 'a/b', 'INVALID_PATH'],
        ['a parent reference', '..', 'INVALID_PATH'],
        ['a dot', '.', 'INVALID_PATH'],
        ['nothing', '', 'INVALID_PATH'],
        ['a NUL byte', 'a\u0000b.bin', 'INVALID_PATH'],
        ['a line break', 'a\nb.bin', 'INVALID_PATH'],
        ['256 UTF-8 bytes in 128 characters', '\u00e9'.repeat(128), 'INVALID_PATH'],
        ['leading white space', ' a.bin', 'INVALID_PATH'],
        ['an absurd length', 'x'.repeat(5000), 'INVALID_BODY'],
      ];
      for (const [what, filename, code] of cases) {
        const answer = await service.api('PATCH', `/assets/${assetId}`, { filename });
        expect(answer.status, what).toBe(400);
        expect(answer.body.code, what).toBe(code);
      }
      // 255 bytes exactly is allowed.
      const longest = `${'\u00e9'.repeat(125)}.bin`;
      expect(new TextEncoder().encode(longest).length).toBe(254);
      expect((await service.api('PATCH', `/assets/${assetId}`, { filename: longest })).body.result.currentAssetFile.filename).toBe(longest);
    });

    it('refuses to rename an asset that has no file yet', async () => {
      const created = await service.api('POST', '/assets-creations', { count: 1 });
      const assetId = created.body.results[0].result.id;
      expectError(await service.api('PATCH', `/assets/${assetId}`, { filename: 'a.bin' }), 400, 'INVALID_BODY');
    });
  });

  describe('DELETE', () => {
    it('is permanent: the asset and its files are gone, and a blob goes with its last file', async () => {
      const shared = randomFile(4096);
      const first = await uploadNewAsset(service, '/Delete/first.bin', shared);
      const second = await uploadNewAsset(service, '/Delete/second copy.bin', shared);
      const sha = first.asset.currentAssetFile.sha256;
      expect(second.asset.currentAssetFile.sha256).toBe(sha);
      expect(existsSync(blobPath(sha))).toBe(true);
      const { item } = await downloadAsset(service, first.assetId);

      const deleted = await service.api('DELETE', `/assets/${first.assetId}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.result.id).toBe(first.assetId);
      expectError(await service.api('GET', `/assets/${first.assetId}`), 404, 'NOT_FOUND', `/assets/${first.assetId}`);
      expectError(await service.api('GET', `/assets/${first.assetId}/files`), 404, 'NOT_FOUND');
      expectError(await service.api('DELETE', `/asset-files/${first.asset.currentAssetFile.id}`), 404, 'NOT_FOUND');
      expectError(await service.api('DELETE', `/assets/${first.assetId}`), 404, 'NOT_FOUND');
      // A download URL handed out before the delete no longer serves the bytes.
      const stale = await fetch(item.url);
      expect(stale.status).toBe(404);
      expect(((await stale.json()) as any).code).toBe('NOT_FOUND');

      // The other asset with identical bytes keeps the blob.
      expect(existsSync(blobPath(sha))).toBe(true);
      const kept = await downloadAsset(service, second.assetId);
      expect(Buffer.from(await kept.response.arrayBuffer()).equals(shared)).toBe(true);

      expect((await service.api('DELETE', `/assets/${second.assetId}`)).status).toBe(200);
      expect(existsSync(blobPath(sha))).toBe(false);
    });

    it('removes every version\'s blob and the cached preview of an image', async () => {
      const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
      const { assetId, asset } = await uploadNewAsset(service, '/Delete/red.png', png);
      const preview = await fetch(`${asset.currentAssetFile.previewUrl}&size=64`);
      expect(preview.status).toBe(200);
      const v2 = randomFile(500);
      const upload = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, size: v2.length });
      const parts = await sendParts(upload.body.result, v2);
      const completed = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.body.result.uploadId, parts });
      const shas = [asset.currentAssetFile.sha256, completed.body.result.currentAssetFile.sha256];
      expect(shas.every((sha) => existsSync(blobPath(sha)))).toBe(true);
      expect(readdirSync(join(service.dataDir, 'previews'))).toContain(`${shas[0]}-64.webp`);

      expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
      expect(shas.map((sha) => existsSync(blobPath(sha)))).toEqual([false, false]);
      expect(readdirSync(join(service.dataDir, 'previews'))).not.toContain(`${shas[0]}-64.webp`);
    });

    it('discards the open uploads of the deleted asset', async () => {
      const bytes = randomFile(10 * MiB + 10);
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'o', path: '/Delete/open.bin', size: bytes.length, partSize: 5 * MiB }] });
      const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
      const { assetId, upload } = job.successes.o;
      const [first] = await sendParts({ parts: [upload.parts[0]] }, bytes);
      const uploadFile = join(service.dataDir, 'uploads', `${upload.uploadId}.upload`);
      expect(existsSync(uploadFile)).toBe(true);

      expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
      expect(existsSync(uploadFile)).toBe(false);
      const late = await putPart(upload.parts[1].url, bytes.subarray(upload.parts[1].byteRange.start, upload.parts[1].byteRange.end));
      expect(late.status).toBe(404);
      expect(((await late.json()) as any).code).toBe('UPLOAD_EXPIRED');
      const completion = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: [first, { partNumber: 2, eTag: 'x' }] });
      expectError(completion, 404, 'NOT_FOUND');
      const resume = await service.api('POST', '/asset-uploads', { assetId, size: bytes.length, partSize: 5 * MiB, partUrlsRequest: { uploadId: upload.uploadId } });
      expectError(resume, 404, 'UPLOAD_EXPIRED');
    });
  });

  describe('DELETE while an upload is under way', () => {
    it('refuses a part that was still arriving, leaving no bytes behind', async () => {
      const bytes = randomFile(2 * MiB);
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'p', path: '/Delete/arriving.bin', size: bytes.length }] });
      const { assetId, upload } = (await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.p;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(bytes.subarray(0, MiB));
          await released;
          controller.enqueue(bytes.subarray(MiB));
          controller.close();
        },
      });
      const arriving = fetch(upload.parts[0].url, { method: 'PUT', body, duplex: 'half' });
      const uploadFile = join(service.dataDir, 'uploads', `${upload.uploadId}.upload`);
      for (let waited = 0; !existsSync(uploadFile) && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));

      expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
      release();
      const answer = await arriving;
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as any).code).toBe('UPLOAD_EXPIRED');
      expect(existsSync(uploadFile)).toBe(false);
    });

    it('refuses a completion that was being hashed, leaving no bytes behind', async () => {
      const bytes = randomFile(40 * MiB);
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'c', path: '/Delete/completing.bin', size: bytes.length, partSize: 5 * MiB }] });
      const { assetId, upload } = (await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.c;
      const parts = await sendParts(upload, bytes);
      // Sending part 1 again makes the completion hash the whole file, which takes a moment.
      await sendParts({ parts: [upload.parts[0]] }, bytes);
      const completing = service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
      const answer = await completing;
      // Usually the DELETE lands while the file is hashed (404); on a fast machine the completion may win.
      expect([200, 404], answer.text).toContain(answer.status);
      if (answer.status === 404) expect(answer.body.code).toBe('UPLOAD_EXPIRED');
      expect(readdirSync(join(service.dataDir, 'uploads'))).not.toContain(`${upload.uploadId}.upload`);
      expect(existsSync(blobPath(sha256Hex(bytes)))).toBe(false);
      expectError(await service.api('GET', `/assets/${assetId}`), 404, 'NOT_FOUND');
    });
  });

  describe('DELETE /asset-files/:id', () => {
    it('removes an older version and its blob when nothing else uses it, and bumps dateLastModified', async () => {
      const v1 = randomFile(700);
      const { assetId, asset } = await uploadNewAsset(service, '/Versions/v.bin', v1);
      const v2 = randomFile(800);
      const upload = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, size: v2.length });
      const parts = await sendParts(upload.body.result, v2);
      await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.body.result.uploadId, parts });
      clock.advance(3000);
      const deleted = await service.api('DELETE', `/asset-files/${asset.currentAssetFile.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.result).toMatchObject({ id: asset.currentAssetFile.id, checksum: md5Hex(v1) });
      expect(existsSync(blobPath(asset.currentAssetFile.sha256))).toBe(false);
      const after = await service.api('GET', `/assets/${assetId}`);
      expect(after.body.result.dateLastModified).toBe(new Date(clock.now()).toISOString());
      expect(after.body.result.currentAssetFile.checksum).toBe(md5Hex(v2));
    });
  });

  describe('POST /assets-creations', () => {
    it('creates the asked number of empty assets', async () => {
      const { status, body } = await service.api('POST', '/assets-creations', { count: 3 });
      expect(status).toBe(200);
      expect(body.totalResults).toBe(3);
      const ids = body.results.map((entry: any) => entry.result.id);
      expect(new Set(ids).size).toBe(3);
      for (const entry of body.results) {
        expect(entry.result).toMatchObject({ accountId, currentAssetFile: null, metadata: { values: {} } });
        expect(entry.permittedActions).toContainEqual({ resourceType: 'ASSET', resourceId: entry.result.id, action: 'UPLOAD' });
        expect((await service.api('GET', `/assets/${entry.result.id}`)).status).toBe(200);
        expect((await service.api('GET', `/assets/${entry.result.id}/files`)).body).toEqual({ results: [], totalResults: 0 });
      }
      expect((await service.api('POST', '/assets-creations', { count: 1000 })).body.totalResults).toBe(1000);
    });

    it.each([[{ count: 0 }], [{ count: 1001 }], [{ count: -1 }], [{ count: 1.5 }], [{ count: '3' }], [{ count: null }], [{}], [{ count: 1e308 }]])('refuses %j with 400', async (body) => {
      expectError(await service.api('POST', '/assets-creations', body), 400, 'INVALID_BODY', '/assets-creations');
    });
  });

  it('answers 404 NOT_FOUND for unknown ids on every asset route', async () => {
    for (const [method, path, body] of [
      ['GET', `/assets/${UNKNOWN_ID}`],
      ['PATCH', `/assets/${UNKNOWN_ID}`, { filename: 'x.bin' }],
      ['DELETE', `/assets/${UNKNOWN_ID}`],
      ['GET', `/assets/${UNKNOWN_ID}/files`],
      ['DELETE', `/asset-files/${UNKNOWN_ID}`],
      ['GET', '/assets/not-a-uuid-at-all'],
      ['POST', '/asset-uploads', { assetId: UNKNOWN_ID, size: 1 }],
      ['POST', '/asset-upload-completions', { assetId: UNKNOWN_ID, uploadId: 'nope', parts: [{ partNumber: 1, eTag: 'x' }] }],
    ] as const) {
      const answer = await service.api(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code, `${method} ${path}`).toBe('NOT_FOUND');
    }
  });
});

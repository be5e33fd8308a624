import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { putPart, randomFile, sendParts } from '../../support/upload-helpers.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { md5Hex } from '../../support/checksums.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('guest uploads', () => {
  const clock = fakeClock();
  let service: TestService;
  let foldersId: string;
  let inbox: string;
  beforeAll(async () => {
    service = await startTestService({}, { clock });
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const top = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 't', fieldId: foldersId, value: 'Brand' }] });
    const child = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'c', fieldId: foldersId, value: 'Inbox', parentId: top.body.successes.t.result.id }] });
    inbox = child.body.successes.c.result.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  /** A guest's request: no Authorization header. */
  const guest = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };
  /** A guest's part PUT (with `complete`: asking it to complete the one-part upload too). */
  const guestPut = async (url: string, bytes: Buffer, complete = false): Promise<ApiAnswer> => {
    const response = await putPart(url, bytes, complete ? { 'asset-sync-complete': '?1' } : {});
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };
  /** Every file under the data directory's folder (blobs, uploads), by path. */
  const filesIn = (folder: string): string[] =>
    readdirSync(join(service.dataDir, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  const makeLink = async (body: object): Promise<{ id: string; key: string }> => {
    const created = await service.api('POST', '/guest-uploads', { name: 'Agency drop', folderId: inbox, ...body });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.result.id, key: created.body.result.key };
  };
  /** Starts, sends and completes one file as a guest: the completion's answer, and the asset started. */
  const sendFile = async (key: string, filename: string, bytes: Buffer): Promise<ApiAnswer & { assetId: string }> => {
    const started = await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename, size: bytes.length });
    expect(started.status, started.text).toBe(200);
    const parts = await sendParts(started.body.result.upload, bytes);
    const assetId: string = started.body.result.assetId;
    return { ...(await guest('POST', `/public/guest-uploads/${key}/completions`, { assetId, uploadId: started.body.result.upload.uploadId, parts })), assetId };
  };

  it('lets a guest upload into the folder: the asset lands STAGED there, with the bytes sent', async () => {
    const created = await service.api('POST', '/guest-uploads', { name: 'Agency drop', folderId: inbox, maxFileSize: 10_000, maxFiles: 2 });
    expect(created.body.result).toMatchObject({ folderId: inbox, maxFileSize: 10_000, maxFiles: 2, filesUploaded: 0, expiresAt: null });
    const { key, url } = created.body.result;
    expect(url).toBe(`${service.url}/public/guest-uploads/${key}`);
    // The key is shown once: reading the link back never shows it.
    expect((await service.api('GET', `/guest-uploads/${created.body.result.id}`)).body.result).not.toHaveProperty('key');

    const about = await guest('GET', `/public/guest-uploads/${key}`);
    expect(about.body.result).toEqual({ name: 'Agency drop', folder: 'Brand/Inbox', maxFileSize: 10_000, maxFiles: 2, filesRemaining: 2, expiresAt: null });

    const bytes = randomFile(5000);
    const completed = await sendFile(key, 'photo.jpg.bin', bytes);
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.result).toEqual({ filename: 'photo.jpg.bin', size: 5000, checksum: md5Hex(bytes) });
    const asset = (await service.api('GET', `/assets/${completed.assetId}`)).body.result;
    expect(asset.lifecycleStatus.state).toBe('STAGED');
    expect(asset.metadata.values[foldersId]).toEqual([inbox]);
    expect(asset.currentAssetFile.checksum).toBe(md5Hex(bytes));

    // Limits: size first, then the count.
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'big.bin', size: 10_001 }), 413, 'GUEST_UPLOAD_TOO_LARGE', '10000 bytes');
    expect((await sendFile(key, 'second.bin', randomFile(10))).status).toBe(200);
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'third.bin', size: 10 }), 409, 'GUEST_UPLOAD_LIMIT_REACHED', 'at most 2');
    expect((await guest('GET', `/public/guest-uploads/${key}`)).body.result.filesRemaining).toBe(0);
    // Deleting one of its assets frees a place; raising the limit does too.
    await service.api('DELETE', `/assets/${completed.assetId}`);
    expect((await sendFile(key, 'third.bin', randomFile(10))).status).toBe(200);
    await service.api('PATCH', `/guest-uploads/${created.body.result.id}`, { maxFiles: 3 });
    expect((await sendFile(key, 'fourth.bin', randomFile(10))).status).toBe(200);
  });

  it('refuses names that leave the folder, completions of other assets, and bad bodies', async () => {
    const { key } = await makeLink({});
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: '../escape.bin', size: 10 }), 400, 'INVALID_PATH');
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'a/b.bin', size: 10 }), 400, 'INVALID_PATH', '/');
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'a.bin' }), 400, 'INVALID_BODY', 'size');
    const other = (await service.api('POST', '/assets-creations', { count: 1 })).body.results[0].result.id;
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/completions`, { assetId: other, uploadId: 'x', parts: [{ partNumber: 1, eTag: 'e' }] }), 404, 'NOT_FOUND', other);
  });

  it('closes an expired or deleted link, and an unknown key', async () => {
    const { id, key } = await makeLink({ expiresAt: new Date(clock.now() + 60_000).toISOString() });
    expect((await guest('GET', `/public/guest-uploads/${key}`)).status).toBe(200);
    clock.advance(2 * 60_000);
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'late.bin', size: 10 }), 404, 'NOT_FOUND', 'expired');
    expect((await service.api('GET', `/guest-uploads/${id}`)).body.result.expired).toBe(true);
    const second = await makeLink({});
    await service.api('DELETE', `/guest-uploads/${second.id}`);
    expectApiError(await guest('GET', `/public/guest-uploads/${second.key}`), 404, 'NOT_FOUND');
    expectApiError(await guest('GET', '/public/guest-uploads/not-a-key'), 404, 'NOT_FOUND');
  });

  it('is made by admins and members on a folder of the account, and shown to its creator and admins', async () => {
    const viewer = await addUser(service, 'viewer@example.test', 'viewer');
    const member = await addUser(service, 'member@example.test', 'member');
    expectApiError(await service.api('POST', '/guest-uploads', { name: 'x', folderId: inbox }, viewer.token), 403, 'FORBIDDEN');
    expectApiError(await service.api('POST', '/guest-uploads', { name: 'x', folderId: UNKNOWN_ID }), 404, 'NOT_FOUND', 'folder');
    expectApiError(await service.api('POST', '/guest-uploads', { name: 'x', folderId: inbox, maxFiles: 0 }), 400, 'INVALID_BODY', 'maxFiles');
    expectApiError(await service.api('POST', '/guest-uploads', { name: 'x', folderId: inbox, expiresAt: new Date(clock.now() - 1000).toISOString() }), 400, 'INVALID_BODY', 'past');
    const admins = await makeLink({});
    const mine = await service.api('POST', '/guest-uploads', { name: 'Mine', folderId: inbox }, member.token);
    expect(mine.status).toBe(200);
    expectApiError(await service.api('GET', `/guest-uploads/${admins.id}`, undefined, member.token), 404, 'NOT_FOUND');
    const listed = await service.api('GET', '/guest-uploads', undefined, member.token);
    expect(listed.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([mine.body.result.id]);
    // A member's link uploads on their behalf; once they leave the account, the link is closed.
    const account = service.running.ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    if (account === undefined) throw new Error('no local account');
    service.running.ctx.accounts.removeMember(account.id, member.userId);
    expectApiError(await guest('GET', `/public/guest-uploads/${mine.body.result.key}`), 404, 'NOT_FOUND');
  });

  it('ends the unfinished uploads of a deleted link: their parts and completions are refused, and nothing is kept', async () => {
    const link = await makeLink({});
    const blobsBefore = filesIn('blobs');
    const start = async (filename: string, bytes: Buffer) => {
      const started = await guest('POST', `/public/guest-uploads/${link.key}/uploads`, { filename, size: bytes.length });
      expect(started.status, started.text).toBe(200);
      return { assetId: started.body.result.assetId as string, uploadId: started.body.result.upload.uploadId as string, url: started.body.result.upload.parts[0].url as string, bytes };
    };
    const untouched = await start('untouched.bin', randomFile(5000));
    const halfway = await start('halfway.bin', randomFile(3000));
    // One part received (its bytes are in uploads/), the upload not completed yet.
    const received = await guestPut(halfway.url, halfway.bytes);
    expect(received.status, received.text).toBe(200);

    expect((await service.api('DELETE', `/guest-uploads/${link.id}`)).status).toBe(200);

    // Part URLs signed before the deletion no longer take bytes, whether or not they ask to complete.
    expectApiError(await guestPut(untouched.url, untouched.bytes, true), 404, 'UPLOAD_EXPIRED');
    expectApiError(await guestPut(halfway.url, halfway.bytes), 404, 'UPLOAD_EXPIRED');
    const parts = [{ partNumber: 1, eTag: md5Hex(halfway.bytes) }];
    expectApiError(await guest('POST', `/public/guest-uploads/${link.key}/completions`, { assetId: halfway.assetId, uploadId: halfway.uploadId, parts }), 404, 'NOT_FOUND');
    // Not even the account can complete them: the uploads are gone, with the empty assets made for them.
    expectApiError(await service.api('POST', '/asset-upload-completions', { assetId: halfway.assetId, uploadId: halfway.uploadId, parts }), 404, 'NOT_FOUND');
    for (const upload of [untouched, halfway]) expectApiError(await service.api('GET', `/assets/${upload.assetId}`), 404, 'NOT_FOUND');
    const uploadFiles = filesIn('uploads').join('\n');
    expect(uploadFiles).not.toContain(untouched.uploadId);
    expect(uploadFiles).not.toContain(halfway.uploadId);
    expect(filesIn('blobs')).toEqual(blobsBefore);
  });

  it("answers a guest's part PUT and completion with only what the guest sent", async () => {
    const link = await makeLink({});
    const bytes = randomFile(5000);
    const started = await guest('POST', `/public/guest-uploads/${link.key}/uploads`, { filename: 'brief.pdf.bin', size: bytes.length });
    const { assetId, upload } = started.body.result;
    // Asked to complete as well, a guest's PUT only receives the part: completing goes through the link.
    const put = await guestPut(upload.parts[0].url, bytes, true);
    expect(put.status, put.text).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${md5Hex(bytes)}"`);
    expect(put.headers.get('asset-sync-complete')).toBeNull();
    expect(put.text).toBe('');

    const completed = await guest('POST', `/public/guest-uploads/${link.key}/completions`, { assetId, uploadId: upload.uploadId, parts: [{ partNumber: 1, eTag: md5Hex(bytes) }] });
    expect(completed.status, completed.text).toBe(200);
    expect(Object.keys(completed.body).sort()).toEqual(['permittedActions', 'result']);
    expect(completed.body.result).toEqual({ filename: 'brief.pdf.bin', size: 5000, checksum: md5Hex(bytes) });
    for (const secret of ['accountId', 'folder', 'previewUrl', 'http', assetId]) expect(completed.text).not.toContain(secret);
    // The account sees the asset, staged in the link's folder.
    const asset = (await service.api('GET', `/assets/${assetId}`)).body.result;
    expect(asset.lifecycleStatus.state).toBe('STAGED');
    expect(asset.currentAssetFile.checksum).toBe(md5Hex(bytes));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { randomFile, sendParts } from '../../support/upload-helpers.js';
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
  const makeLink = async (body: object): Promise<{ id: string; key: string }> => {
    const created = await service.api('POST', '/guest-uploads', { name: 'Agency drop', folderId: inbox, ...body });
    expect(created.status, created.text).toBe(200);
    return { id: created.body.result.id, key: created.body.result.key };
  };
  /** Starts, sends and completes one file as a guest. */
  const sendFile = async (key: string, filename: string, bytes: Buffer): Promise<ApiAnswer> => {
    const started = await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename, size: bytes.length });
    expect(started.status, started.text).toBe(200);
    const parts = await sendParts(started.body.result.upload, bytes);
    return guest('POST', `/public/guest-uploads/${key}/completions`, { assetId: started.body.result.assetId, uploadId: started.body.result.upload.uploadId, parts });
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
    expect(completed.body.result).toMatchObject({ filename: 'photo.jpg.bin', size: 5000, state: 'STAGED' });
    const asset = (await service.api('GET', `/assets/${completed.body.result.assetId}`)).body.result;
    expect(asset.lifecycleStatus.state).toBe('STAGED');
    expect(asset.metadata.values[foldersId]).toEqual([inbox]);
    expect(asset.currentAssetFile.checksum).toBe(md5Hex(bytes));

    // Limits: size first, then the count.
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'big.bin', size: 10_001 }), 413, 'GUEST_UPLOAD_TOO_LARGE', '10000 bytes');
    expect((await sendFile(key, 'second.bin', randomFile(10))).status).toBe(200);
    expectApiError(await guest('POST', `/public/guest-uploads/${key}/uploads`, { filename: 'third.bin', size: 10 }), 409, 'GUEST_UPLOAD_LIMIT_REACHED', 'at most 2');
    expect((await guest('GET', `/public/guest-uploads/${key}`)).body.result.filesRemaining).toBe(0);
    // Deleting one of its assets frees a place; raising the limit does too.
    await service.api('DELETE', `/assets/${completed.body.result.assetId}`);
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
});

import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_PASSWORD, startTestService, type TestService } from '../support/test-service.js';
import { MiB, downloadAsset, putPart, randomFile, sendParts, uploadNewAsset, waitForJob } from '../support/upload-helpers.js';
import { addUser } from '../support/test-users.js';
import { verifyPassword } from '../../src/service/accounts/passwords.js';
import { openDatabase } from '../../src/service/db/open-database.js';
import { join } from 'node:path';
import { md5Hex, sha256Hex } from '../support/checksums.js';
import { tempDir } from '../support/temp-dir.js';

/** The same signed URL on another origin: signatures cover the path and query, not the host. */
const onOrigin = (url: string, origin: string): string => {
  const moved = new URL(url);
  const target = new URL(origin);
  moved.host = target.host;
  return moved.toString();
};
const jobProgress = (dataDir: string, id: string): { state: string; cursor: number } | undefined => {
  const db = openDatabase(join(dataDir, 'service.db'));
  try {
    return db.prepare<[string], { state: string; cursor: number }>('SELECT state, cursor FROM jobs WHERE id = ?').get(id);
  } finally {
    db.close();
  }
};

describe('restart on the same data directory', () => {
  const dataDir = tempDir();
  const started: TestService[] = [];
  afterAll(async () => {
    for (const service of started) await service.stop().catch(() => undefined);
  });

  it('keeps fields, folders, assets, files, blobs, users, keys, jobs and half-sent uploads', async () => {
    const first = await startTestService({}, {}, dataDir);
    started.push(first);
    expect(first.running.bootstrap.adminCreated).toBe(true);

    // Schema, users and one complete asset in a folder, with metadata.
    const field = await first.api('POST', '/fields', { name: 'Photographer' });
    const fieldsBefore = (await first.api('GET', '/fields')).body;
    const member = await addUser(first, 'member@example.com', 'member');
    const bytes = randomFile(3 * MiB + 17);
    const { assetId } = await uploadNewAsset(first, '/Brand/Logos/logo.bin', bytes);
    await first.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [field.body.result.id]: ['Ann'] } } });
    const assetBefore = (await first.api('GET', `/assets/${assetId}`)).body.result;
    const filesBefore = (await first.api('GET', `/assets/${assetId}/files`)).body;
    const adminToken = await first.token();
    const me = (await first.api('GET', '/current-user', undefined, adminToken)).body.result;

    // An upload with part 1 sent, part 2 half-sent when the service stops, part 3 not sent.
    const big = randomFile(15 * MiB);
    const created = await first.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'h', path: '/Half/sent.bin', size: big.length, partSize: 5 * MiB }] });
    const { assetId: halfAssetId, upload } = (await waitForJob(first, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.h;
    const [sentFirst] = await sendParts({ parts: [upload.parts[0]] }, big);
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const halfBody = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(big.subarray(5 * MiB, 7 * MiB));
        await stalled;
        controller.close();
      },
    });
    const halfSent = fetch(upload.parts[1].url, { method: 'PUT', body: halfBody, duplex: 'half' }).then(
      (response) => response.status,
      () => 'connection closed',
    );
    await sleep(300);

    // A big job created just before the stop.
    const assetsBefore = first.running.ctx.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM assets').get()?.n ?? 0;
    const items = Array.from({ length: 1000 }, (_, index) => ({ batchItemId: `i${index}`, path: `/Bulk/file-${index}.bin`, size: 10 }));
    const bulk = await first.api('POST', '/asset-and-upload-batch-jobs', { items });
    expect(bulk.status).toBe(200);
    await first.stop();
    release();
    expect(await halfSent).not.toBe(200);
    // The job was interrupted (or had not started): the restart has to finish it.
    const atStop = jobProgress(dataDir, bulk.body.result.id);
    expect(['QUEUED', 'RUNNING']).toContain(atStop?.state);
    expect(atStop?.cursor).toBeLessThan(1000);

    const second = await first.restart();
    started.push(second);
    expect(second.running.bootstrap).toEqual({ adminCreated: false });
    expect(second.url).not.toBe(first.url);

    // The signing key survived: tokens minted before the stop still work, for the admin and the member.
    const current = await second.api('GET', '/current-user', undefined, adminToken);
    expect(current.status).toBe(200);
    expect(current.body.result).toEqual(me);
    expect((await second.api('GET', '/current-user', undefined, member.token)).body.result.email).toBe('member@example.com');
    const admin = second.running.ctx.accounts.userByEmail(second.running.ctx.config.adminEmail);
    expect(admin !== undefined && (await verifyPassword(ADMIN_PASSWORD, admin.password_hash))).toBe(true);

    // Schema, folders, asset, files and blob.
    expect((await second.api('GET', '/fields')).body).toEqual(fieldsBefore);
    const assetAfter = (await second.api('GET', `/assets/${assetId}`)).body.result;
    expect({ ...assetAfter, currentAssetFile: { ...assetAfter.currentAssetFile, previewUrl: null } }).toEqual(assetBefore);
    expect((await second.api('GET', `/assets/${assetId}/files`)).body).toEqual(filesBefore);
    const folderSettings = (await second.api('GET', '/folder-settings')).body.result;
    const [folderId] = assetAfter.metadata.values[folderSettings.fieldId];
    const folder = second.running.ctx.fieldOptions.get(assetAfter.accountId, folderId);
    expect(folder === undefined ? undefined : second.running.ctx.fieldOptions.render(folder)).toMatchObject({ value: 'Logos', parent: { value: 'Brand', parent: null } });
    const { response } = await downloadAsset(second, assetId);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    // The job finishes, every item exactly once.
    const bulkJob = await waitForJob(second, '/asset-and-upload-batch-jobs', bulk.body.result.id);
    expect(bulkJob).toMatchObject({ state: 'COMPLETED', progress: 1, failures: {} });
    expect(Object.keys(bulkJob.successes)).toHaveLength(1000);
    const assetsAfter = second.running.ctx.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM assets').get()?.n ?? 0;
    expect(assetsAfter - assetsBefore).toBe(1000);
    expect(new Set(Object.values(bulkJob.successes).map((success: any) => success.assetId)).size).toBe(1000);

    // The half-sent upload resumes: part 1 is kept, the half part is missing, and completion rehashes.
    const resumed = await second.api('POST', '/asset-uploads', { assetId: halfAssetId, size: big.length, partSize: 5 * MiB, partUrlsRequest: { uploadId: upload.uploadId, urlRequests: [{ partNumber: 2 }] } });
    expect(resumed.status).toBe(200);
    const early = await second.api('POST', '/asset-upload-completions', { assetId: halfAssetId, uploadId: upload.uploadId, parts: [sentFirst, { partNumber: 2, eTag: 'x' }, { partNumber: 3, eTag: 'y' }] });
    expect(early.body.code).toBe('UPLOAD_INCOMPLETE');
    expect(early.body.message).toContain('2, 3');
    const [sentSecond] = await sendParts(resumed.body.result, big);
    // A part URL handed out before the restart is still valid (the URL-signing secret survived).
    const third = await putPart(onOrigin(upload.parts[2].url, second.url), big.subarray(10 * MiB));
    expect(third.status).toBe(200);
    const done = await second.api('POST', '/asset-upload-completions', {
      assetId: halfAssetId,
      uploadId: upload.uploadId,
      parts: [sentFirst, sentSecond, { partNumber: 3, eTag: third.headers.get('etag') }],
    });
    expect(done.status).toBe(200);
    expect(done.body.result.currentAssetFile).toMatchObject({ size: big.length, checksum: md5Hex(big), sha256: sha256Hex(big) });
    const half = await downloadAsset(second, halfAssetId);
    expect(Buffer.from(await half.response.arrayBuffer()).equals(big)).toBe(true);
  });
});

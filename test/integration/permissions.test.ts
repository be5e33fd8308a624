/**
 * Roles on the endpoints that exist: what each role may do is enforced (403 FORBIDDEN otherwise) and
 * advertised (`permittedActions`) from the same table, so the two must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { randomFile, sendParts, uploadNewAsset, waitForJob } from '../support/upload-helpers.js';
import { addUser } from '../support/test-users.js';
import { md5Hex } from '../support/checksums.js';

const actionsOf = (permitted: any[]): string[] => permitted.map((entry) => `${entry.resourceType}:${entry.action}`).sort();

describe('permissions by role', () => {
  let service: TestService;
  let adminToken: string;
  let memberToken: string;
  let viewerToken: string;
  let assetId: string;
  let olderFileId: string;
  let fieldId: string;
  beforeAll(async () => {
    service = await startTestService();
    adminToken = await service.token();
    memberToken = (await addUser(service, 'member@example.com', 'member')).token;
    viewerToken = (await addUser(service, 'viewer@example.com', 'viewer')).token;
    const uploaded = await uploadNewAsset(service, '/Roles/shared.bin', randomFile(300));
    assetId = uploaded.assetId;
    olderFileId = uploaded.asset.currentAssetFile.id;
    const v2 = randomFile(400);
    const upload = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, size: v2.length });
    await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.body.result.uploadId, parts: await sendParts(upload.body.result, v2) });
    fieldId = (await service.api('POST', '/fields', { name: 'Credit' })).body.result.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  const expectForbidden = (answer: { status: number; body: any }, what: string): void => {
    expect(answer.status, what).toBe(403);
    expect(answer.body, what).toMatchObject({ status: 403, error: 'Forbidden', code: 'FORBIDDEN', message: expect.any(String) });
  };

  it('lists account-wide actions on /current-user by role', async () => {
    const actions = async (token: string): Promise<any[]> => (await service.api('GET', '/current-user', undefined, token)).body.permittedActions;
    const createAssets = { resourceType: 'ASSETS', resourceId: null, action: 'CREATE_ASSETS' };
    const createFields = { resourceType: 'FIELDS', resourceId: null, action: 'CREATE_FIELDS' };
    const admin = await actions(adminToken);
    expect(admin).toContainEqual(createAssets);
    expect(admin).toContainEqual(createFields);
    const member = await actions(memberToken);
    expect(member).toContainEqual(createAssets);
    expect(member).not.toContainEqual(createFields);
    const viewer = await actions(viewerToken);
    expect(viewer).not.toContainEqual(createAssets);
    expect(viewer).not.toContainEqual(createFields);
    expect(viewer).toContainEqual({ resourceType: 'ASSETS', resourceId: null, action: 'SEARCH_ASSETS' });
    const me = await service.api('GET', '/current-user', undefined, viewerToken);
    expect(me.body.result).toMatchObject({ email: 'viewer@example.com', accountId: expect.any(String) });
  });

  it('advertises in permittedActions exactly what the role may do', async () => {
    const asset = async (token: string) => actionsOf((await service.api('GET', `/assets/${assetId}`, undefined, token)).body.permittedActions);
    expect(await asset(adminToken)).toEqual(['ASSET:DELETE', 'ASSET:DOWNLOAD', 'ASSET:EDIT', 'ASSET:UPLOAD', 'ASSET:VIEW']);
    expect(await asset(memberToken)).toEqual(['ASSET:DELETE', 'ASSET:DOWNLOAD', 'ASSET:EDIT', 'ASSET:UPLOAD', 'ASSET:VIEW']);
    expect(await asset(viewerToken)).toEqual(['ASSET:DOWNLOAD', 'ASSET:VIEW']);
    const files = await service.api('GET', `/assets/${assetId}/files`, undefined, viewerToken);
    for (const entry of files.body.results) expect(actionsOf(entry.permittedActions)).toEqual(['ASSET_FILE:DOWNLOAD', 'ASSET_FILE:VIEW']);
    const field = async (token: string) => actionsOf((await service.api('GET', `/fields/${fieldId}`, undefined, token)).body.permittedActions);
    expect(await field(adminToken)).toEqual(['FIELD:DELETE', 'FIELD:EDIT', 'FIELD:VIEW']);
    expect(await field(memberToken)).toEqual(['FIELD:VIEW']);
    expect(await field(viewerToken)).toEqual(['FIELD:VIEW']);
    // Every resource id in an envelope is the resource's own.
    for (const entry of (await service.api('GET', `/assets/${assetId}`, undefined, viewerToken)).body.permittedActions) expect(entry.resourceId).toBe(assetId);
  });

  it('lets a viewer look and download, and nothing else', async () => {
    const before = (await service.api('GET', `/assets/${assetId}`)).body.result;
    const viewer = (method: string, path: string, body?: unknown) => service.api(method, path, body, viewerToken);
    const item = { batchItemId: 'v', path: '/Roles/viewer.bin', size: 10 };
    const refused: [string, string, unknown][] = [
      ['PATCH', `/assets/${assetId}`, { filename: 'renamed.bin' }],
      ['PATCH', `/assets/${assetId}`, { metadata: { values: { [fieldId]: ['Vic'] } } }],
      ['DELETE', `/assets/${assetId}`, undefined],
      ['DELETE', `/asset-files/${olderFileId}`, undefined],
      ['POST', '/assets-creations', { count: 1 }],
      ['POST', '/asset-uploads', { assetId, assetFileId: null, size: 10 }],
      ['POST', '/asset-and-upload-batch-jobs', { items: [item] }],
      ['POST', '/asset-upload-batch-jobs', { items: [{ ...item, assetId, assetFileId: null }] }],
      ['POST', '/asset-upload-completions', { assetId, uploadId: 'x', parts: [{ partNumber: 1, eTag: 'x' }] }],
      ['POST', '/fields', { name: 'Viewer field' }],
      ['PATCH', `/fields/${fieldId}`, { name: 'Renamed' }],
      ['DELETE', `/fields/${fieldId}`, undefined],
    ];
    for (const [method, path, body] of refused) expectForbidden(await viewer(method, path, body), `${method} ${path}`);

    const after = (await service.api('GET', `/assets/${assetId}`)).body.result;
    expect(after).toEqual(before);
    expect((await service.api('GET', `/assets/${assetId}/files`)).body.totalResults).toBe(2);
    expect((await service.api('GET', `/fields/${fieldId}`)).body.result.name).toBe('Credit');

    expect((await viewer('GET', `/assets/${assetId}`)).status).toBe(200);
    expect((await viewer('GET', '/fields')).status).toBe(200);
    const download = await viewer('POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'd', assetId, assetFileId: null }] });
    expect(download.status).toBe(200);
    const job = await waitForJob(service, '/asset-download-batch-jobs', download.body.result.id, viewerToken);
    const fetched = await fetch(job.successes.d.url);
    expect(md5Hex(Buffer.from(await fetched.arrayBuffer()))).toBe(after.currentAssetFile.checksum);
  });

  it('does not show a viewer the upload URLs in someone else\'s job', async () => {
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'a', path: '/Roles/admin-only.bin', size: 10 }] });
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
    expect(job.successes.a.upload.parts[0].url).toContain('/upload-parts/');
    const peek = await service.api('GET', `/asset-and-upload-batch-jobs/${job.id}`, undefined, viewerToken);
    expect(peek.status).toBe(404);
    expect(peek.body.code).toBe('NOT_FOUND');
    expect(peek.text).not.toContain('upload-parts');
    expect((await service.api('GET', `/asset-and-upload-batch-jobs/${job.id}`, undefined, memberToken)).status).toBe(404);
  });

  it('lets a member upload and edit assets but not change the schema', async () => {
    const member = (method: string, path: string, body?: unknown) => service.api(method, path, body, memberToken);
    const bytes = randomFile(500);
    const created = await member('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'm', path: '/Roles/member.bin', size: bytes.length }] });
    expect(created.status).toBe(200);
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id, memberToken);
    const { assetId: memberAsset, upload } = job.successes.m;
    const completed = await member('POST', '/asset-upload-completions', { assetId: memberAsset, uploadId: upload.uploadId, parts: await sendParts(upload, bytes) });
    expect(completed.status).toBe(200);
    expect(completed.body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
    expect(completed.body.result.lifecycleStatus.stagedBy).toBe(service.running.ctx.accounts.userByEmail('member@example.com')?.id);

    const edited = await member('PATCH', `/assets/${assetId}`, { filename: 'by member.bin', metadata: { values: { [fieldId]: ['Mia'] } } });
    expect(edited.status).toBe(200);
    expect(edited.body.result.currentAssetFile.filename).toBe('by member.bin');
    expect(edited.body.result.metadata.values[fieldId]).toEqual(['Mia']);
    const version = await member('POST', '/asset-uploads', { assetId, assetFileId: null, size: 10 });
    expect(version.status).toBe(200);
    expect((await member('POST', '/assets-creations', { count: 2 })).body.totalResults).toBe(2);

    expectForbidden(await member('POST', '/fields', { name: 'Member field' }), 'POST /fields');
    expectForbidden(await member('PATCH', `/fields/${fieldId}`, { name: 'Renamed' }), 'PATCH /fields/:id');
    expectForbidden(await member('DELETE', `/fields/${fieldId}`), 'DELETE /fields/:id');
    expect((await service.api('GET', `/fields/${fieldId}`)).body.result.name).toBe('Credit');

    expect((await member('DELETE', `/asset-files/${olderFileId}`)).status).toBe(200);
    expect((await member('DELETE', `/assets/${memberAsset}`)).status).toBe(200);
  });

  it('keeps accounts apart: another account\'s ids do not exist for this one', async () => {
    // A second account with its built-in fields and an admin, as bootstrap makes the local one.
    const { ctx } = service.running;
    const now = ctx.nowIso();
    const other = ctx.accounts.createAccount('other', 'Other', now);
    const otherFolders = ctx.fields.create(other.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' }, now);
    ctx.fields.create(other.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, indestructable: true, role: 'KEYWORDS' }, now);
    const bob = ctx.accounts.createUser('bob@other.example', 'Bob', 'unused', now);
    ctx.accounts.addMembership(other.id, bob.id, 'admin');
    const bobToken = await ctx.tokens.issue({ sub: bob.id, scope: 'subdomain:other' }, 3600);
    const asBob = (method: string, path: string, body?: unknown) => service.api(method, path, body, bobToken);

    const bytes = randomFile(200);
    const created = await asBob('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'b', path: '/Secret/plan.bin', size: bytes.length }] });
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id, bobToken);
    const { assetId: bobAsset, upload } = job.successes.b;
    const parts = await sendParts(upload, bytes);
    const open = await asBob('POST', '/asset-uploads', { assetId: bobAsset, assetFileId: null, size: 10 });
    const done = await asBob('POST', '/asset-upload-completions', { assetId: bobAsset, uploadId: upload.uploadId, parts });
    expect(done.status).toBe(200);
    const bobFile = done.body.result.currentAssetFile.id;
    const bobFolder = done.body.result.metadata.values[otherFolders.id][0];
    const bobField = (await asBob('POST', '/fields', { name: 'Secret field' })).body.result.id;

    const localFolders = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const notFound: [string, string, unknown][] = [
      ['GET', `/assets/${bobAsset}`, undefined],
      ['PATCH', `/assets/${bobAsset}`, { filename: 'mine.bin' }],
      ['DELETE', `/assets/${bobAsset}`, undefined],
      ['GET', `/assets/${bobAsset}/files`, undefined],
      ['DELETE', `/asset-files/${bobFile}`, undefined],
      ['GET', `/fields/${bobField}`, undefined],
      ['DELETE', `/fields/${bobField}`, undefined],
      ['GET', `/asset-and-upload-batch-jobs/${job.id}`, undefined],
      ['POST', '/asset-uploads', { assetId: bobAsset, assetFileId: null, size: 10 }],
      ['POST', '/asset-upload-completions', { assetId: bobAsset, uploadId: open.body.result.uploadId, parts: [{ partNumber: 1, eTag: 'x' }] }],
      ['POST', '/asset-uploads', { assetId, size: 10, partUrlsRequest: { uploadId: open.body.result.uploadId } }],
    ];
    for (const [method, path, body] of notFound) {
      const answer = await service.api(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.text, `${method} ${path}`).not.toContain('Secret');
    }
    for (const values of [{ [bobField]: ['x'] }, { [localFolders]: [bobFolder] }]) {
      const answer = await service.api('PATCH', `/assets/${assetId}`, { metadata: { values } });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_FIELD_VALUE');
    }
    const download = await service.api('POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'x', assetId: bobAsset, assetFileId: bobFile }] });
    const downloadJob = await waitForJob(service, '/asset-download-batch-jobs', download.body.result.id);
    expect(downloadJob.failures.x).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(downloadJob.successes).toEqual({});
    // Bob's asset is untouched.
    expect((await asBob('GET', `/assets/${bobAsset}`)).body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));
  });

  it('answers 404 before 403: a viewer learns nothing about ids that do not exist', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [['PATCH', `/assets/${unknown}`], ['DELETE', `/assets/${unknown}`], ['DELETE', `/asset-files/${unknown}`], ['DELETE', `/fields/${unknown}`]] as const) {
      const answer = await service.api(method, path, method === 'PATCH' ? { filename: 'x.bin' } : undefined, viewerToken);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
  });
});

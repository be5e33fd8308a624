import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient } from '../../src/main/api/create-api-client.js';
import type { Criterion } from '../../src/main/api/asset-api.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { clientFor } from '../support/api-client-service.js';

const lifecycle = { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' } as const;
const anyState: Criterion = { type: 'FIELD_IN', field: lifecycle, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] };
const byId = [{ field: { type: 'FIXED' as const, fieldName: 'ASSET_ID' }, order: 'ASC' as const }];

describe('searches and jobs against the real service', () => {
  let service: TestService;
  let api: ApiClient;

  beforeEach(async () => {
    service = await startTestService();
    api = await clientFor(service);
  });

  afterEach(async () => {
    api.close();
    await service.dispose();
  });

  async function createAssets(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let left = count; left > 0; left -= 1000) {
      const answer = await service.api('POST', '/assets-creations', { count: Math.min(left, 1000) });
      expect(answer.status).toBe(200);
      ids.push(...answer.body.results.map((item: any) => item.result.id));
    }
    return ids;
  }

  it('scrolls through a few hundred staged assets, each exactly once, sending the latest scrollId', async () => {
    const ids = await createAssets(345);
    const seen: string[] = [];
    let pages = 0;
    for await (const page of api.scrollAssets({ criterion: anyState, sorts: byId, pageSize: 100 })) {
      pages++;
      expect(page.totalResults).toBe(345);
      seen.push(...page.results.map(({ result }) => result.id));
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(345);
    expect(new Set(seen)).toEqual(new Set(ids));

    // Without a state criterion only LIVE assets match: none yet.
    expect(await api.countAssets({ type: 'MATCH_ALL' })).toBe(0);
    expect(await api.countAssets(anyState)).toBe(345);
    const page = await api.searchAssets({ criterion: anyState, sorts: byId, from: 340, pageSize: 10 });
    expect(page.results).toHaveLength(5);
    await expect(api.searchAssets({ criterion: anyState, sorts: byId, from: 9995, pageSize: 10 })).rejects.toMatchObject({ code: 'PAGING_LIMIT_EXCEEDED', status: 400 });
    await expect(api.searchAssets({ criterion: { type: 'FIELD_EQUALS' }, sorts: byId })).rejects.toMatchObject({ code: 'INVALID_CRITERION', status: 400, retryable: false });
  });

  it('polls a lifecycle job to the end and reports per-item failures', async () => {
    const ids = await createAssets(3);
    const outcome = await api.transitionLifecycle({ type: 'BY_IDS', assetIds: [...ids, 'no-such-asset'] }, 'LIVE');
    expect(outcome.jobId).toEqual(expect.any(String));
    expect(Object.keys(outcome.successes).sort()).toEqual([...ids].sort());
    expect(outcome.failures['no-such-asset']).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await api.countAssets({ type: 'MATCH_ALL' })).toBe(3);
    const asset = await api.getAsset(ids[0] ?? '');
    expect(asset.lifecycleStatus.state).toBe('LIVE');

    const binned = await api.transitionLifecycle({ type: 'BY_IDS', assetIds: [ids[0] ?? ''] }, 'BINNED');
    expect(Object.keys(binned.successes)).toEqual([ids[0]]);
    expect(await api.countAssets({ type: 'MATCH_ALL' })).toBe(2);
  });

  it('moves an asset between folders with a metadata edit job and renames its file', async () => {
    const foldersId = await api.foldersFieldId();
    const created = await api.createAssetsWithUploads([{ batchItemId: 'a', path: '/From/file.txt', size: 0 }]);
    const success = created.successes.a;
    const part = success?.upload.parts[0];
    if (success === undefined || part === undefined) throw new Error('no upload');
    const options = await api.createFieldOptions([{ batchItemId: 'to', fieldId: foldersId, value: 'To', parentId: null }]);
    const to = options.successes.to?.id ?? '';

    const edit = await api.editMetadata({ type: 'BY_IDS', assetIds: [success.assetId] }, [{ fieldId: foldersId, type: 'BY_IDS', values: [to], operation: 'REPLACE' }]);
    expect(Object.keys(edit.successes)).toEqual([success.assetId]);
    expect((await api.getAsset(success.assetId)).metadata.values[foldersId]).toEqual([to]);

    await expect(api.changeAsset(success.assetId, { filename: 'renamed.txt' })).rejects.toMatchObject({ code: 'INVALID_BODY' }); // no file yet
    const putAnswer = await fetch(part.url, { method: 'PUT', body: new Uint8Array(0), headers: { 'content-type': 'application/octet-stream' } });
    await api.completeUpload({ assetId: success.assetId, uploadId: success.upload.uploadId, parts: [{ partNumber: 1, eTag: putAnswer.headers.get('etag') ?? '' }] });
    const renamed = await api.changeAsset(success.assetId, { filename: 'renamed.txt' });
    expect(renamed.currentAssetFile?.filename).toBe('renamed.txt');

    await api.deleteAsset(success.assetId);
    await expect(api.getAsset(success.assetId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('answers the current user with the account-wide actions', async () => {
    const user = await api.currentUser();
    expect(user.result.email).toBe(service.running.ctx.config.adminEmail);
    expect(user.permittedActions.some((action) => action.action === 'CREATE_ASSETS')).toBe(true);
  });
});

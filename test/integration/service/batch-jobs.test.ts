import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';

describe('selector batch jobs', () => {
  let service: TestService;
  let foldersId: string;
  let captionId: string;
  let colourId: string;
  let colours: Record<string, string>;

  /** Creates a job and waits for it; returns the finished job. */
  async function runJob(path: string, body: unknown, token?: string): Promise<any> {
    const created = await service.api('POST', path, body, token);
    expect(created.status, created.text).toBe(200);
    return waitForJob(service, path, created.body.result.id);
  }
  const byIds = (...assetIds: string[]) => ({ type: 'BY_IDS', assetIds });
  const asset = async (id: string) => (await service.api('GET', `/assets/${id}`)).body.result;
  const blobPath = (sha256: string) => service.running.blobs.pathOf(sha256);

  beforeAll(async () => {
    service = await startTestService();
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    captionId = (await service.api('POST', '/fields', { name: 'Caption', hasFixedOptions: false, multiValue: false })).body.result.id;
    colourId = (await service.api('POST', '/fields', { name: 'Colour', hasFixedOptions: true, multiValue: true })).body.result.id;
    const batch = await service.api('POST', '/field-option-batches', {
      items: ['Red', 'Green', 'Blue'].map((value) => ({ batchItemId: value, fieldId: colourId, value })),
    });
    colours = Object.fromEntries(Object.entries(batch.body.successes).map(([key, entry]: [string, any]) => [key, entry.result.id]));
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('answers a job that is done in one go finished at its creation, so a client needs no poll [ours]', async () => {
    const a = await uploadNewAsset(service, '/Once/a.txt', Buffer.from('a'));
    const created = await service.api('POST', '/asset-lifecycle-transition-batch-jobs', { selector: byIds(a.assetId), targetState: 'BINNED' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.result).toMatchObject({ state: 'COMPLETED', progress: 1, failures: {}, successes: { [a.assetId]: { assetId: a.assetId, state: 'BINNED' } } });
    expect(created.body.result).not.toHaveProperty('pollHoldMs');
    expect((await asset(a.assetId)).lifecycleStatus.state).toBe('BINNED');
  });

  describe('metadata edit', () => {
    it('replaces, adds and removes values by id and by value, bumping dateLastModified', async () => {
      const a = await uploadNewAsset(service, '/Edit/a.txt', Buffer.from('a'));
      const b = await uploadNewAsset(service, '/Edit/Inner/b.txt', Buffer.from('b'));
      const before = a.asset.dateLastModified;
      await new Promise((resolve) => setTimeout(resolve, 5));

      const job = await runJob('/asset-metadata-edit-batch-jobs', {
        selector: byIds(a.assetId, b.assetId),
        metadataFieldValueUpdates: [
          { fieldId: captionId, type: 'BY_VALUES', values: ['Summer launch'] },
          { fieldId: colourId, type: 'BY_IDS', values: [colours.Red] },
          { fieldId: colourId, type: 'BY_VALUES', values: ['Blue'], operation: 'ADD' },
        ],
      });
      expect(job).toMatchObject({ type: 'AssetMetadataEditBatchJob', state: 'COMPLETED', progress: 1, failures: {} });
      expect(Object.keys(job.successes).sort()).toEqual([a.assetId, b.assetId].sort());
      const edited = await asset(a.assetId);
      expect(edited.metadata.values[captionId]).toEqual(['Summer launch']);
      expect(edited.metadata.values[colourId]).toEqual([colours.Red, colours.Blue]);
      expect(edited.metadata.values[foldersId]).toEqual(a.asset.metadata.values[foldersId]);
      expect(edited.dateLastModified > before).toBe(true);

      await runJob('/asset-metadata-edit-batch-jobs', {
        selector: byIds(a.assetId),
        metadataFieldValueUpdates: [
          { fieldId: colourId, type: 'BY_IDS', values: [colours.Red], operation: 'REMOVE' },
          { fieldId: foldersId, type: 'BY_VALUES', values: ['/Edit/Inner'], operation: 'ADD' },
        ],
      });
      const moved = await asset(a.assetId);
      expect(moved.metadata.values[colourId]).toEqual([colours.Blue]);
      expect(moved.metadata.values[foldersId]).toEqual([...a.asset.metadata.values[foldersId], ...b.asset.metadata.values[foldersId]]);
    });

    it('fails single assets that cannot take the change, and unknown ids, without failing the job', async () => {
      const a = await uploadNewAsset(service, '/Edit/single.txt', Buffer.from('s'));
      await runJob('/asset-metadata-edit-batch-jobs', { selector: byIds(a.assetId), metadataFieldValueUpdates: [{ fieldId: captionId, type: 'BY_VALUES', values: ['first'] }] });
      const job = await runJob('/asset-metadata-edit-batch-jobs', {
        selector: byIds(a.assetId, 'no-such-asset'),
        metadataFieldValueUpdates: [{ fieldId: captionId, type: 'BY_VALUES', values: ['second'], operation: 'ADD' }],
      });
      expect(job.state).toBe('COMPLETED');
      expect(job.failures[a.assetId].code).toBe('INVALID_FIELD_VALUE');
      expect(job.failures['no-such-asset'].code).toBe('NOT_FOUND');
      expect((await asset(a.assetId)).metadata.values[captionId]).toEqual(['first']);
    });

    it.each([
      [{ fieldId: 'nope', type: 'BY_VALUES', values: ['x'] }, 'no field with id'],
      [{ fieldId: 'COLOUR', type: 'BY_IDS', values: ['x'] }, '"x" is not an option of "Colour"'],
      [{ fieldId: 'COLOUR', type: 'BY_VALUES', values: ['Purple'] }, 'has no option "Purple"'],
      [{ fieldId: 'CAPTION', type: 'BY_VALUES', values: ['one', 'two'] }, 'takes one value'],
      [{ fieldId: 'FOLDERS', type: 'BY_VALUES', values: ['/Nowhere/Deep'] }, 'has no option at "/Nowhere/Deep"'],
    ])('refuses %j at once', async (update, message) => {
      const names: Record<string, string> = { COLOUR: colourId, CAPTION: captionId, FOLDERS: foldersId };
      const resolved = { ...update, fieldId: names[update.fieldId] ?? update.fieldId };
      const { status, body } = await service.api('POST', '/asset-metadata-edit-batch-jobs', { selector: byIds('x'), metadataFieldValueUpdates: [resolved] });
      expect(status).toBe(400);
      expect(body.code).toBe('INVALID_FIELD_VALUE');
      expect(body.message).toContain(message);
    });

    it('refuses an option id of another field and an ambiguous option value', async () => {
      const wrong = await service.api('POST', '/asset-metadata-edit-batch-jobs', {
        selector: byIds('x'),
        metadataFieldValueUpdates: [{ fieldId: foldersId, type: 'BY_IDS', values: [colours.Red] }],
      });
      expect(wrong.body.message).toContain('is not an option of "Folders"');
      await uploadNewAsset(service, '/One/Same/a.txt', Buffer.from('1'));
      await uploadNewAsset(service, '/Two/Same/b.txt', Buffer.from('2'));
      const ambiguous = await service.api('POST', '/asset-metadata-edit-batch-jobs', {
        selector: byIds('x'),
        metadataFieldValueUpdates: [{ fieldId: foldersId, type: 'BY_VALUES', values: ['Same'] }],
      });
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body.message).toContain('give its /path or use BY_IDS');
    });

    it('works through large selections in chunks', async () => {
      const created = await service.api('POST', '/assets-creations', { count: 1000 });
      const more = await service.api('POST', '/assets-creations', { count: 200 });
      const ids = [...created.body.results, ...more.body.results].map((entry: any) => entry.result.id);
      const job = await runJob('/asset-metadata-edit-batch-jobs', {
        selector: byIds(...ids),
        metadataFieldValueUpdates: [{ fieldId: colourId, type: 'BY_IDS', values: [colours.Green] }],
      });
      expect(job).toMatchObject({ state: 'COMPLETED', progress: 1, failures: {} });
      expect(Object.keys(job.successes)).toHaveLength(1200);
      expect((await asset(ids[1199])).metadata.values[colourId]).toEqual([colours.Green]);
    });
  });

  describe('lifecycle transitions', () => {
    it('moves STAGED to LIVE, into the bin and back, setting dates', async () => {
      const { assetId, asset: staged } = await uploadNewAsset(service, '/Life/a.txt', Buffer.from('life'));
      expect(staged.lifecycleStatus).toMatchObject({ state: 'STAGED', dateLive: null });
      const live = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'LIVE' });
      expect(live.successes[assetId]).toEqual({ assetId, state: 'LIVE' });
      const afterLive = (await asset(assetId)).lifecycleStatus;
      expect(afterLive).toMatchObject({ state: 'LIVE', dateStaged: staged.lifecycleStatus.dateStaged });
      expect(afterLive.dateLive).toEqual(expect.any(String));

      await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'BINNED' });
      expect((await asset(assetId)).lifecycleStatus.state).toBe('BINNED');
      const wrongWay = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'STAGED' });
      expect(wrongWay.failures[assetId]).toMatchObject({ code: 'INVALID_TRANSITION', status: 409 });
      expect(wrongWay.failures[assetId].message).toContain('can only go back to LIVE');
      await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'LIVE' });
      expect((await asset(assetId)).lifecycleStatus).toMatchObject({ state: 'LIVE', dateLive: afterLive.dateLive });
    });

    it('refuses LIVE back to STAGED and treats a repeat as done', async () => {
      const { assetId } = await uploadNewAsset(service, '/Life/b.txt', Buffer.from('b'));
      await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'PENDING_APPROVAL' });
      expect((await asset(assetId)).lifecycleStatus.datePendingApproval).toEqual(expect.any(String));
      await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'LIVE' });
      const again = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'LIVE' });
      expect(again.successes[assetId]).toEqual({ assetId, state: 'LIVE' });
      const back = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: byIds(assetId), targetState: 'STAGED' });
      expect(back.failures[assetId].code).toBe('INVALID_TRANSITION');
    });
  });

  describe('deletion', () => {
    it('deletes permanently, freeing blobs no other file uses', async () => {
      const shared = Buffer.from('identical bytes');
      const a = await uploadNewAsset(service, '/Del/a.txt', shared);
      const b = await uploadNewAsset(service, '/Del/b.txt', shared);
      const c = await uploadNewAsset(service, '/Del/c.txt', Buffer.from('unique bytes'));
      const sharedBlob = blobPath(a.asset.currentAssetFile.sha256);
      const uniqueBlob = blobPath(c.asset.currentAssetFile.sha256);
      expect(existsSync(sharedBlob) && existsSync(uniqueBlob)).toBe(true);

      const job = await runJob('/asset-deletion-batch-jobs', { selector: byIds(a.assetId, c.assetId) });
      expect(job).toMatchObject({ type: 'AssetDeletionBatchJob', state: 'COMPLETED', failures: {} });
      expect((await service.api('GET', `/assets/${a.assetId}`)).status).toBe(404);
      expect((await service.api('GET', `/assets/${c.assetId}`)).status).toBe(404);
      expect(existsSync(uniqueBlob)).toBe(false);
      expect(existsSync(sharedBlob)).toBe(true);
      expect((await asset(b.assetId)).currentAssetFile.checksum).toBe(a.asset.currentAssetFile.checksum);
    });
  });

  describe('selecting by criterion', () => {
    const folder = (optionId: string) => ({ type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: optionId, includeSubfolders: true });
    const staged = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' };

    it('resolves the criterion when the job is created, with the default LIVE filter', async () => {
      const a = await uploadNewAsset(service, '/Crit/a.txt', Buffer.from('ca'));
      const b = await uploadNewAsset(service, '/Crit/Sub/b.txt', Buffer.from('cb'));
      await uploadNewAsset(service, '/Elsewhere/c.txt', Buffer.from('cc'));
      const [critId] = a.asset.metadata.values[foldersId];

      // Without naming a state, a criterion sees only LIVE assets: these are STAGED, so nothing moves.
      const none = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_CRITERION', criterion: folder(critId) }, targetState: 'LIVE' });
      expect(none).toMatchObject({ state: 'COMPLETED', progress: 1, successes: {}, failures: {} });

      const live = await runJob('/asset-lifecycle-transition-batch-jobs', {
        selector: { type: 'BY_CRITERION', criterion: { type: 'AND', criteria: [folder(critId), staged] } },
        targetState: 'LIVE',
      });
      expect(Object.keys(live.successes).sort()).toEqual([a.assetId, b.assetId].sort());
      expect((await asset(b.assetId)).lifecycleStatus.state).toBe('LIVE');

      const edited = await runJob('/asset-metadata-edit-batch-jobs', {
        selector: { type: 'BY_CRITERION', criterion: folder(critId) },
        metadataFieldValueUpdates: [{ fieldId: captionId, type: 'BY_VALUES', values: ['in Crit'] }],
      });
      expect(Object.keys(edited.successes)).toHaveLength(2);
      const deleted = await runJob('/asset-deletion-batch-jobs', {
        selector: { type: 'BY_CRITERION', criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: captionId }, value: 'in Crit' } },
      });
      expect(Object.keys(deleted.successes).sort()).toEqual([a.assetId, b.assetId].sort());
      expect((await service.api('GET', `/assets/${a.assetId}`)).status).toBe(404);
    });

    it('answers a bad criterion with a 400 that points into the selector', async () => {
      const { status, body } = await service.api('POST', '/asset-deletion-batch-jobs', { selector: { type: 'BY_CRITERION', criterion: { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'DATE_ADDED' }, value: 'x' } } });
      expect(status).toBe(400);
      expect(body.code).toBe('UNSUPPORTED_V1_NAME');
      expect(body.message).toContain('selector.criterion');
      const missing = await service.api('POST', '/asset-deletion-batch-jobs', { selector: { type: 'BY_CRITERION' } });
      expect(missing.body.code).toBe('INVALID_CRITERION');
    });
  });

  it('answers V1 names with their V2 replacement', async () => {
    const path = await service.api('POST', '/asset-staging-workflow-transition-batch-jobs', { selector: byIds('x'), targetState: 'LIVE' });
    expect(path.status).toBe(400);
    expect(path.body.code).toBe('UNSUPPORTED_V1_NAME');
    expect(path.body.message).toContain('/asset-lifecycle-transition-batch-jobs');
    for (const jobPath of ['/asset-lifecycle-transition-batch-jobs', '/asset-deletion-batch-jobs', '/asset-metadata-edit-batch-jobs']) {
      const body = await service.api('POST', jobPath, { criterion: { type: 'MATCH_ALL' }, targetState: 'LIVE' });
      expect(body.body.code).toBe('UNSUPPORTED_V1_NAME');
      expect(body.body.message).toContain('"selector": {"type": "BY_CRITERION"');
    }
  });

  it('lets only roles that may change assets run these jobs', async () => {
    const { running } = service;
    const { hashPassword } = await import('../../../src/service/accounts/passwords.js');
    const account = running.ctx.accounts.bySubdomain('local');
    const user = running.ctx.accounts.createUser('viewer@example.com', null, await hashPassword('viewer password'), running.ctx.nowIso());
    running.ctx.accounts.addMembership(account?.id ?? '', user.id, 'viewer');
    const token = await service.token('viewer@example.com');
    for (const [path, body] of [
      ['/asset-lifecycle-transition-batch-jobs', { selector: byIds('x'), targetState: 'LIVE' }],
      ['/asset-deletion-batch-jobs', { selector: byIds('x') }],
      ['/asset-metadata-edit-batch-jobs', { selector: byIds('x'), metadataFieldValueUpdates: [{ fieldId: captionId, type: 'BY_VALUES', values: ['x'] }] }],
    ] as const) {
      const answer = await service.api('POST', path, body, token);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('FORBIDDEN');
    }
  });
});

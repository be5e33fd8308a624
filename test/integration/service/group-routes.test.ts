import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { sendParts, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';

describe('groups and folder-based asset permissions', () => {
  let service: TestService;
  let foldersId: string;
  let limited: { userId: string; token: string };
  let free: { userId: string; token: string };
  let inside: string;
  let deeper: string;
  let outside: string;
  let teamFolder: string;
  let otherFolder: string;
  const staged = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'STAGED' }, value: true };
  const search = (token: string) => service.api('POST', '/asset-searches', { from: 0, pageSize: 50, criterion: staged, sorts: [] }, token);
  const ids = (body: { results: { result: { id: string } }[] }) => body.results.map((entry) => entry.result.id).sort();
  const runJob = async (path: string, body: unknown, token: string) => {
    const created = await service.api('POST', path, body, token);
    expect(created.status, created.text).toBe(200);
    return waitForJob(service, path, created.body.result.id, token);
  };

  beforeAll(async () => {
    service = await startTestService();
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const a = await uploadNewAsset(service, '/Team/inside.txt', Buffer.from('inside'));
    const b = await uploadNewAsset(service, '/Team/Sub/deeper.txt', Buffer.from('deeper'));
    const c = await uploadNewAsset(service, '/Other/outside.txt', Buffer.from('outside'));
    [inside, deeper, outside] = [a.assetId, b.assetId, c.assetId];
    teamFolder = a.asset.metadata.values[foldersId][0];
    otherFolder = c.asset.metadata.values[foldersId][0];
    limited = await addUser(service, 'limited@example.test', 'member');
    free = await addUser(service, 'free@example.test', 'member');
  });
  afterAll(async () => {
    await service.dispose();
  });

  describe('the group resource', () => {
    it('creates, lists, gets, patches and deletes a group', async () => {
      const created = await service.api('POST', '/groups', { name: 'Editors', description: 'they edit', memberIds: [free.userId] });
      expect(created.status, created.text).toBe(200);
      const id = created.body.result.id;
      expect(created.body.result).toMatchObject({ name: 'Editors', description: 'they edit', memberIds: [free.userId], allFolders: true, folderIds: [] });
      expect(created.body.permittedActions).toContainEqual({ resourceType: 'GROUP', resourceId: id, action: 'EDIT' });
      const listed = await service.api('GET', '/groups', undefined, free.token);
      expect(listed.body.results.map((entry: { result: { name: string } }) => entry.result.name)).toContain('Editors');
      expect((await service.api('GET', `/groups/${id}`, undefined, free.token)).body.permittedActions).toEqual([{ resourceType: 'GROUP', resourceId: id, action: 'VIEW' }]);
      const patched = await service.api('PATCH', `/groups/${id}`, { folderIds: [otherFolder] });
      expect(patched.body.result).toMatchObject({ name: 'Editors', description: 'they edit', allFolders: false, folderIds: [otherFolder], memberIds: [free.userId] });
      expect(patched.body.result.dateLastModified >= created.body.result.dateLastModified).toBe(true);
      expect((await service.api('DELETE', `/groups/${id}`)).status).toBe(200);
      expect((await service.api('GET', `/groups/${id}`)).body.code).toBe('NOT_FOUND');
      // Gone with its limit: the member reaches everything again.
      expect(ids((await search(free.token)).body)).toEqual([inside, deeper, outside].sort());
    });

    it.each([
      ['a duplicate name', { name: 'Dup' }, 409, 'GROUP_NAME_TAKEN', 'Dup'],
      ['no name', { description: 'x' }, 400, 'INVALID_BODY', 'name'],
      ['an unknown member', { name: 'G1', memberIds: ['nobody'] }, 400, 'INVALID_BODY', 'memberIds[0]'],
      ['an option that is not a folder', { name: 'G2', folderIds: ['not-a-folder'] }, 400, 'INVALID_BODY', 'folderIds[0]'],
      ['folders with allFolders', { name: 'G3', allFolders: true, folderIds: ['x'] }, 400, 'INVALID_BODY', 'folderIds'],
      ['a number as name', { name: 3 }, 400, 'INVALID_BODY', 'name'],
    ])('refuses %s', async (_, body, status, code, mention) => {
      if (code === 'GROUP_NAME_TAKEN') await service.api('POST', '/groups', { name: 'Dup' });
      const answer = await service.api('POST', '/groups', body);
      expect(answer.status).toBe(status);
      expect(answer.body.code).toBe(code);
      expect(answer.body.message).toContain(mention);
    });

    it('lets only admins change groups, and answers 404 for unknown ones', async () => {
      expect((await service.api('POST', '/groups', { name: 'Mine' }, free.token)).body.code).toBe('FORBIDDEN');
      const group = (await service.api('POST', '/groups', { name: 'Theirs' })).body.result;
      expect((await service.api('PATCH', `/groups/${group.id}`, { name: 'Mine' }, free.token)).body.code).toBe('FORBIDDEN');
      expect((await service.api('DELETE', `/groups/${group.id}`, undefined, free.token)).body.code).toBe('FORBIDDEN');
      expect((await service.api('PATCH', '/groups/nope', { name: 'x' })).status).toBe(404);
      expect((await service.api('DELETE', '/groups/nope')).status).toBe(404);
    });
  });

  describe('a member of a group limited to one folder', () => {
    let groupId: string;
    beforeAll(async () => {
      const created = await service.api('POST', '/groups', { name: 'Team only', memberIds: [limited.userId], folderIds: [teamFolder] });
      groupId = created.body.result.id;
    });

    it('reads assets in the folder and its subfolders, and nothing outside', async () => {
      expect((await service.api('GET', `/assets/${inside}`, undefined, limited.token)).status).toBe(200);
      expect((await service.api('GET', `/assets/${deeper}`, undefined, limited.token)).status).toBe(200);
      const hidden = await service.api('GET', `/assets/${outside}`, undefined, limited.token);
      expect(hidden.status).toBe(404);
      expect(hidden.body.code).toBe('NOT_FOUND');
      expect((await service.api('GET', `/assets/${outside}/files`, undefined, limited.token)).status).toBe(404);
      expect((await service.api('GET', `/assets/${outside}/saved-crop-areas`, undefined, limited.token)).status).toBe(404);
      // A member without a group, and the admin, still reach it.
      expect((await service.api('GET', `/assets/${outside}`, undefined, free.token)).status).toBe(200);
    });

    it('searches and scrolls only within the folder, whatever the criterion', async () => {
      const found = await search(limited.token);
      expect(found.body.totalResults).toBe(2);
      expect(ids(found.body)).toEqual([inside, deeper].sort());
      const byId = await service.api('POST', '/asset-searches', { from: 0, pageSize: 5, criterion: { type: 'AND', criteria: [staged, { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, value: outside }] }, sorts: [] }, limited.token);
      expect(byId.body.totalResults).toBe(0);
      const scroll = await service.api('POST', '/asset-scroll-searches', { pageSize: 1, criterion: staged, sorts: [] }, limited.token);
      const next = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: scroll.body.scrollId }, limited.token);
      const last = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: next.body.scrollId }, limited.token);
      expect(scroll.body.totalResults).toBe(2);
      expect([...ids(scroll.body), ...ids(next.body)].sort()).toEqual([inside, deeper].sort());
      expect(last.body.results).toEqual([]);
      expect((await search(free.token)).body.totalResults).toBe(3);
    });

    it('downloads inside the folder only', async () => {
      const job = await runJob('/asset-download-batch-jobs', { items: [{ batchItemId: 'in', assetId: inside, assetFileId: null }, { batchItemId: 'out', assetId: outside, assetFileId: null }] }, limited.token);
      expect(job.failures.out.code).toBe('NOT_FOUND');
      const response = await fetch(job.successes.in.url);
      expect(await response.text()).toBe('inside');
    });

    it('edits inside the folder only, and cannot file an asset outside it', async () => {
      const keywords = (await service.api('GET', '/fields')).body.find((field: { name: string }) => field.name === 'Keywords').id;
      expect((await service.api('PATCH', `/assets/${outside}`, { metadata: { values: { [keywords]: ['x'] } } }, limited.token)).status).toBe(404);
      const edited = await service.api('PATCH', `/assets/${inside}`, { metadata: { values: { [keywords]: ['mine'] } } }, limited.token);
      expect(edited.body.result.metadata.values[keywords]).toEqual(['mine']);
      const moved = await service.api('PATCH', `/assets/${inside}`, { metadata: { values: { [foldersId]: [otherFolder] } } }, limited.token);
      expect(moved.status).toBe(403);
      expect(moved.body.code).toBe('FOLDER_OUT_OF_SCOPE');
      const cleared = await service.api('PATCH', `/assets/${inside}`, { metadata: { values: { [foldersId]: [] } } }, limited.token);
      expect(cleared.body.code).toBe('FOLDER_OUT_OF_SCOPE');
      const batchMove = await service.api('POST', '/asset-metadata-edit-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [inside] }, metadataFieldValueUpdates: [{ fieldId: foldersId, type: 'BY_IDS', values: [otherFolder], operation: 'ADD' }] }, limited.token);
      expect(batchMove.body.code).toBe('FOLDER_OUT_OF_SCOPE');
      expect((await service.api('DELETE', `/assets/${outside}`, undefined, limited.token)).status).toBe(404);
    });

    it('selects only reachable assets in batch jobs, by criterion or by id', async () => {
      const byCriterion = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_CRITERION', criterion: staged }, targetState: 'PENDING_APPROVAL' }, limited.token);
      expect(Object.keys(byCriterion.successes).sort()).toEqual([inside, deeper].sort());
      const byIds = await runJob('/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [outside] }, targetState: 'PENDING_APPROVAL' }, limited.token);
      expect(byIds.failures[outside].code).toBe('NOT_FOUND');
      expect((await service.api('GET', `/assets/${outside}`)).body.result.lifecycleStatus.state).toBe('STAGED');
    });

    it('uploads into the folder (a new subfolder too) but not elsewhere', async () => {
      const upload = async (path: string) =>
        runJob('/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'one', path, size: 2, partUrlsRequest: { urlRequests: [] } }] }, limited.token);
      expect((await upload('/Other/new.txt')).failures.one.code).toBe('FOLDER_OUT_OF_SCOPE');
      expect((await upload('/top-level.txt')).failures.one.code).toBe('FOLDER_OUT_OF_SCOPE');
      expect((await upload('/Elsewhere/new.txt')).failures.one.code).toBe('FOLDER_OUT_OF_SCOPE');
      // The refused upload made no folder.
      expect(service.running.ctx.fieldOptions.childByValue(foldersId, null, 'Elsewhere')).toBeUndefined();
      expect(service.running.ctx.fieldOptions.childByValue(foldersId, null, 'Team')).toBeDefined();
      const accepted = await upload('/Team/Fresh/new.txt');
      const success = accepted.successes.one;
      const parts = await sendParts(success.upload, Buffer.from('ok'));
      const completed = await service.api('POST', '/asset-upload-completions', { assetId: success.assetId, uploadId: success.upload.uploadId, parts }, limited.token);
      expect(completed.status, completed.text).toBe(200);
      expect((await service.api('GET', `/assets/${success.assetId}`, undefined, limited.token)).status).toBe(200);
      expect((await service.api('POST', '/assets-creations', { count: 1 }, limited.token)).body.code).toBe('FOLDER_OUT_OF_SCOPE');
    });

    it('reaches everything once the group is no longer limited', async () => {
      await service.api('PATCH', `/groups/${groupId}`, { allFolders: true });
      expect((await service.api('GET', `/assets/${outside}`, undefined, limited.token)).status).toBe(200);
      await service.api('PATCH', `/groups/${groupId}`, { folderIds: [teamFolder] });
      expect((await service.api('GET', `/assets/${outside}`, undefined, limited.token)).status).toBe(404);
    });
  });

  describe('users', () => {
    it('gets a user of the account with their groups, and 404 for others', async () => {
      const answer = await service.api('GET', `/users/${limited.userId}`, undefined, free.token);
      expect(answer.body.result).toMatchObject({ id: limited.userId, email: 'limited@example.test', role: 'member' });
      expect(answer.body.result.groupIds).toHaveLength(1);
      expect(answer.body.result.password_hash).toBeUndefined();
      expect((await service.api('GET', '/users/nobody')).body.code).toBe('NOT_FOUND');
    });

    it('searches users by text and by group, paged', async () => {
      const byText = await service.api('POST', '/user-searches', { text: 'LIMITED' });
      expect(byText.body.results.map((entry: { result: { email: string } }) => entry.result.email)).toEqual(['limited@example.test']);
      const groupId = (await service.api('GET', `/users/${limited.userId}`)).body.result.groupIds[0];
      const byGroup = await service.api('POST', '/user-searches', { groupId });
      expect(byGroup.body.totalResults).toBe(1);
      const paged = await service.api('POST', '/user-searches', { from: 1, pageSize: 1 });
      expect(paged.body.totalResults).toBe(3);
      expect(paged.body.results).toHaveLength(1);
      expect((await service.api('POST', '/user-searches', { pageSize: 0 })).body.code).toBe('INVALID_BODY');
    });
  });
});

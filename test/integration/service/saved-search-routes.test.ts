import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../../support/smtp-server.js';

const staged = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'STAGED' }, value: true };

describe('saved searches', () => {
  let smtp: TestSmtp;
  let service: TestService;
  let owner: { userId: string; token: string };
  let foldersId: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
    owner = await addUser(service, 'owner@example.test', 'member');
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
  });
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });
  const criterionFor = async (folderPath: string) => {
    const seed = await uploadNewAsset(service, `${folderPath}/seed.txt`, Buffer.from('seed'));
    const folderId = seed.asset.metadata.values[foldersId][0];
    const criterion = { type: 'AND', criteria: [staged, { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: folderId }] };
    return { criterion, seedId: seed.assetId };
  };

  it('saves, lists, runs, patches and deletes a saved search, privately', async () => {
    const { criterion, seedId } = await criterionFor('/Run');
    const created = await service.api('POST', '/saved-searches', { name: 'Run folder', criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'DESC' }] }, owner.token);
    expect(created.status, created.text).toBe(200);
    const id = created.body.result.id;
    expect(created.body.result).toMatchObject({ name: 'Run folder', ownerId: owner.userId, emailUpdates: false, criterion });
    const run = await service.api('POST', `/saved-searches/${id}/results`, {}, owner.token);
    expect(run.body.totalResults).toBe(1);
    expect(run.body.results[0].result.id).toBe(seedId);
    expect((await service.api('GET', '/saved-searches', undefined, owner.token)).body.totalResults).toBe(1);
    // Private: the admin sees neither the list entry nor the search.
    expect((await service.api('GET', '/saved-searches')).body.totalResults).toBe(0);
    expect((await service.api('GET', `/saved-searches/${id}`)).status).toBe(404);
    const renamed = await service.api('PATCH', `/saved-searches/${id}`, { name: 'Renamed' }, owner.token);
    expect(renamed.body.result).toMatchObject({ name: 'Renamed', criterion });
    expect((await service.api('DELETE', `/saved-searches/${id}`, undefined, owner.token)).status).toBe(200);
    expect((await service.api('GET', `/saved-searches/${id}`, undefined, owner.token)).status).toBe(404);
  });

  it.each([
    ['a bad criterion', { name: 'x', criterion: { type: 'NOPE' } }, 'INVALID_CRITERION'],
    ['no criterion', { name: 'x' }, 'INVALID_CRITERION'],
    ['a bad sort', { name: 'x', criterion: { type: 'MATCH_ALL' }, sorts: [{ field: { type: 'FIXED', fieldName: 'NOPE' }, order: 'ASC' }] }, 'INVALID_SORT'],
    ['an empty name', { name: ' ', criterion: { type: 'MATCH_ALL' } }, 'INVALID_BODY'],
  ])('refuses %s', async (_, body, code) => {
    const answer = await service.api('POST', '/saved-searches', body, owner.token);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(code);
  });

  it('sends the owner exactly one e-mail for a matching upload, and none for one that does not match', async () => {
    const { criterion } = await criterionFor('/Watched');
    const saved = await service.api('POST', '/saved-searches', { name: 'Watched folder', criterion, emailUpdates: true }, owner.token);
    expect(saved.body.result.emailUpdates).toBe(true);
    // What matched before updates were on is not news.
    await service.running.checkSavedSearches();
    expect(smtp.received).toHaveLength(0);

    await uploadNewAsset(service, '/Watched/new-photo.txt', Buffer.from('new'));
    await uploadNewAsset(service, '/Unwatched/other.txt', Buffer.from('other'));
    await service.running.checkSavedSearches();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.to).toEqual(['owner@example.test']);
    expect(mail?.raw).toContain('new-photo.txt');
    expect(mail?.raw).not.toContain('other.txt');
    expect(mail?.raw).toContain('Subject: 1 new asset in saved search Watched folder');
    // Checked again: the same asset is never news twice.
    await service.running.checkSavedSearches();
    expect(smtp.received).toHaveLength(1);

    // Two uploads between checks make one e-mail listing both.
    await uploadNewAsset(service, '/Watched/a.txt', Buffer.from('a'));
    await uploadNewAsset(service, '/Watched/b.txt', Buffer.from('b'));
    await service.running.checkSavedSearches();
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[1]?.raw).toContain('a.txt');
    expect(smtp.received[1]?.raw).toContain('b.txt');

    await service.api('PATCH', `/saved-searches/${saved.body.result.id}`, { emailUpdates: false }, owner.token);
    await uploadNewAsset(service, '/Watched/c.txt', Buffer.from('c'));
    await service.running.checkSavedSearches();
    expect(smtp.received).toHaveLength(2);
  });

  it('refuses e-mail updates when no SMTP server is configured', async () => {
    const plain = await startTestService();
    try {
      const answer = await plain.api('POST', '/saved-searches', { name: 'x', criterion: { type: 'MATCH_ALL' }, emailUpdates: true });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('EMAIL_NOT_CONFIGURED');
    } finally {
      await plain.dispose();
    }
  });
});

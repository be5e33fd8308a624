import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';

describe('comments on assets', () => {
  let service: TestService;
  let assetId: string;
  let author: { userId: string; token: string };
  let other: { userId: string; token: string };
  beforeAll(async () => {
    service = await startTestService();
    assetId = (await uploadNewAsset(service, '/Docs/a.txt', Buffer.from('a'))).assetId;
    author = await addUser(service, 'author@example.test', 'viewer');
    other = await addUser(service, 'other@example.test', 'member');
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('creates, lists in order, patches and deletes a comment', async () => {
    const first = await service.api('POST', `/assets/${assetId}/comments`, { text: '  Looks good  ' }, author.token);
    expect(first.status, first.text).toBe(200);
    expect(first.body.result).toMatchObject({ assetId, authorId: author.userId, text: 'Looks good' });
    expect(first.body.permittedActions.map((entry: { action: string }) => entry.action)).toEqual(['VIEW', 'EDIT', 'DELETE']);
    const second = await service.api('POST', `/assets/${assetId}/comments`, { text: 'Agreed' }, other.token);
    const listed = await service.api('GET', `/assets/${assetId}/comments`, undefined, author.token);
    expect(listed.body.totalResults).toBe(2);
    expect(listed.body.results.map((entry: { result: { text: string } }) => entry.result.text)).toEqual(['Looks good', 'Agreed']);
    // The author sees only VIEW on someone else's comment.
    expect(listed.body.results[1].permittedActions).toEqual([{ resourceType: 'COMMENT', resourceId: second.body.result.id, action: 'VIEW' }]);
    const paged = await service.api('GET', `/assets/${assetId}/comments?from=1&pageSize=1`);
    expect(paged.body.results.map((entry: { result: { text: string } }) => entry.result.text)).toEqual(['Agreed']);
    const patched = await service.api('PATCH', `/comments/${first.body.result.id}`, { text: 'Looks great' }, author.token);
    expect(patched.body.result.text).toBe('Looks great');
    expect((await service.api('DELETE', `/comments/${first.body.result.id}`, undefined, author.token)).status).toBe(200);
    expect((await service.api('PATCH', `/comments/${first.body.result.id}`, { text: 'x' }, author.token)).status).toBe(404);
  });

  it('lets only the author or an admin change or delete a comment', async () => {
    const mine = (await service.api('POST', `/assets/${assetId}/comments`, { text: 'mine' }, author.token)).body.result;
    const refused = await service.api('PATCH', `/comments/${mine.id}`, { text: 'theirs' }, other.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await service.api('DELETE', `/comments/${mine.id}`, undefined, other.token)).body.code).toBe('FORBIDDEN');
    expect((await service.api('PATCH', `/comments/${mine.id}`, { text: 'moderated' })).body.result.text).toBe('moderated');
    expect((await service.api('DELETE', `/comments/${mine.id}`)).status).toBe(200);
  });

  it.each([
    ['an empty text', { text: '   ' }, 'text'],
    ['no text', {}, 'text'],
    ['too long a text', { text: 'x'.repeat(10_001) }, 'text'],
  ])('refuses %s', async (_, body, mention) => {
    const answer = await service.api('POST', `/assets/${assetId}/comments`, body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_BODY');
    expect(answer.body.message).toContain(mention);
  });

  it('answers 404 for unknown assets and comments, and hides comments of assets out of reach', async () => {
    expect((await service.api('GET', '/assets/nope/comments')).body.code).toBe('NOT_FOUND');
    expect((await service.api('POST', '/assets/nope/comments', { text: 'x' })).body.code).toBe('NOT_FOUND');
    expect((await service.api('DELETE', '/comments/nope')).body.code).toBe('NOT_FOUND');
    expect((await service.api('GET', `/assets/${assetId}/comments?pageSize=0`)).body.code).toBe('INVALID_QUERY');
    const comment = (await service.api('POST', `/assets/${assetId}/comments`, { text: 'hidden soon' })).body.result;
    const elsewhere = (await uploadNewAsset(service, '/Elsewhere/b.txt', Buffer.from('b'))).asset;
    const foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    await service.api('POST', '/groups', { name: 'Elsewhere only', memberIds: [other.userId], folderIds: elsewhere.metadata.values[foldersId] });
    expect((await service.api('GET', `/assets/${assetId}/comments`, undefined, other.token)).status).toBe(404);
    expect((await service.api('PATCH', `/comments/${comment.id}`, { text: 'x' }, other.token)).status).toBe(404);
  });

  it('goes with its asset', async () => {
    const doomed = (await uploadNewAsset(service, '/Docs/doomed.txt', Buffer.from('d'))).assetId;
    const comment = (await service.api('POST', `/assets/${doomed}/comments`, { text: 'bye' })).body.result;
    expect((await service.api('DELETE', `/assets/${doomed}`)).status).toBe(200);
    expect((await service.api('DELETE', `/comments/${comment.id}`)).status).toBe(404);
    expect(service.running.ctx.db.prepare('SELECT count(*) AS n FROM comments WHERE id = ?').get(comment.id)).toEqual({ n: 0 });
  });
});

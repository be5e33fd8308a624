import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { addUser } from '../../support/test-users.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const ANY_STATE = { type: 'FIELD_EXISTS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' } };
const inCollection = (id: string) => ({ type: 'AND', criteria: [ANY_STATE, { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'COLLECTIONS' }, value: id }] });

describe('collection routes', () => {
  let service: TestService;
  let member: { userId: string; token: string };
  let other: { userId: string; token: string };
  let viewer: { userId: string; token: string };
  let assetIds: string[];
  beforeAll(async () => {
    service = await startTestService();
    member = await addUser(service, 'member@example.test', 'member');
    other = await addUser(service, 'other@example.test', 'member');
    viewer = await addUser(service, 'viewer@example.test', 'viewer');
    const created = await service.api('POST', '/assets-creations', { count: 4 });
    assetIds = created.body.results.map((entry: { result: { id: string } }) => entry.result.id);
  });
  afterAll(async () => {
    await service.dispose();
  });

  const searchIds = async (criterion: unknown, token?: string): Promise<string[]> => {
    const answer = await service.api('POST', '/asset-searches', { criterion, sorts: [] }, token);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.results.map((entry: { result: { id: string } }) => entry.result.id).sort();
  };

  it('creates a collection with assets, gets it and finds its assets through the COLLECTIONS field', async () => {
    const created = await service.api('POST', '/collections', { name: 'Launch', description: 'Spring', assetIds: [assetIds[0], assetIds[1], assetIds[0]] }, member.token);
    expect(created.status, created.text).toBe(200);
    const id: string = created.body.result.id;
    expect(created.body.result).toMatchObject({ name: 'Launch', description: 'Spring', ownerId: member.userId, numberOfAssets: 2, collaborators: [] });
    expect(created.body.permittedActions.map((action: { action: string }) => action.action)).toEqual(['VIEW', 'EDIT', 'DELETE', 'SHARE', 'MANAGE_COLLABORATORS']);
    const got = await service.api('GET', `/collections/${id}`, undefined, member.token);
    expect(got.body.result).toEqual(created.body.result);
    expect(await searchIds(inCollection(id))).toEqual([assetIds[0], assetIds[1]].sort());
    const listed = await service.api('GET', `/collections/${id}/assets`, undefined, member.token);
    expect(listed.body.result.assetIds.sort()).toEqual([assetIds[0], assetIds[1]].sort());
  });

  it('adds and removes assets, and patches name and description (null clears it)', async () => {
    const { body } = await service.api('POST', '/collections', { name: 'Edits' }, member.token);
    const id: string = body.result.id;
    const added = await service.api('POST', `/collections/${id}/assets`, { assetIds: [assetIds[2], assetIds[3]] }, member.token);
    expect(added.body.result.numberOfAssets).toBe(2);
    const removed = await service.api('POST', `/collections/${id}/asset-removals`, { assetIds: [assetIds[2]] }, member.token);
    expect(removed.body.result.numberOfAssets).toBe(1);
    expect(await searchIds(inCollection(id))).toEqual([assetIds[3]]);
    const patched = await service.api('PATCH', `/collections/${id}`, { name: 'Renamed', description: 'x' }, member.token);
    expect(patched.body.result).toMatchObject({ name: 'Renamed', description: 'x' });
    const cleared = await service.api('PATCH', `/collections/${id}`, { description: null }, member.token);
    expect(cleared.body.result).toMatchObject({ name: 'Renamed', description: null });
  });

  it('refuses unknown assets without adding any, and bad bodies', async () => {
    const { body } = await service.api('POST', '/collections', { name: 'Strict' }, member.token);
    const id: string = body.result.id;
    expectApiError(await service.api('POST', `/collections/${id}/assets`, { assetIds: [assetIds[0], UNKNOWN_ID] }, member.token), 404, 'NOT_FOUND', UNKNOWN_ID);
    expect((await service.api('GET', `/collections/${id}`, undefined, member.token)).body.result.numberOfAssets).toBe(0);
    expectApiError(await service.api('POST', '/collections', { name: '  ' }, member.token), 400, 'INVALID_BODY', 'name');
    expectApiError(await service.api('POST', '/collections', { name: 'two\nlines' }, member.token), 400, 'INVALID_BODY', 'control characters');
    expectApiError(await service.api('POST', `/collections/${id}/assets`, { assetIds: [] }, member.token), 400, 'INVALID_BODY', 'assetIds');
    expectApiError(await service.api('GET', `/collections/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
  });

  it('hides a collection from other members, and lets collaborators view or edit by their role', async () => {
    const { body } = await service.api('POST', '/collections', { name: 'Private' }, member.token);
    const id: string = body.result.id;
    expectApiError(await service.api('GET', `/collections/${id}`, undefined, other.token), 404, 'NOT_FOUND');
    expectApiError(await service.api('PUT', `/collections/${id}/collaborators/${other.userId}`, { role: 'VIEWER' }, other.token), 404, 'NOT_FOUND');

    const shared = await service.api('PUT', `/collections/${id}/collaborators/${other.userId}`, { role: 'VIEWER' }, member.token);
    expect(shared.body.result.collaborators).toEqual([{ userId: other.userId, role: 'VIEWER' }]);
    const seen = await service.api('GET', `/collections/${id}`, undefined, other.token);
    expect(seen.status).toBe(200);
    expect(seen.body.permittedActions.map((action: { action: string }) => action.action)).toEqual(['VIEW']);
    expectApiError(await service.api('POST', `/collections/${id}/assets`, { assetIds: [assetIds[0]] }, other.token), 403, 'FORBIDDEN');

    await service.api('PUT', `/collections/${id}/collaborators/${other.userId}`, { role: 'EDITOR' }, member.token);
    expect((await service.api('POST', `/collections/${id}/assets`, { assetIds: [assetIds[0]] }, other.token)).status).toBe(200);
    expectApiError(await service.api('DELETE', `/collections/${id}`, undefined, other.token), 403, 'FORBIDDEN');

    expect((await service.api('DELETE', `/collections/${id}/collaborators/${other.userId}`, undefined, member.token)).status).toBe(200);
    expectApiError(await service.api('GET', `/collections/${id}`, undefined, other.token), 404, 'NOT_FOUND');
    expectApiError(await service.api('DELETE', `/collections/${id}/collaborators/${other.userId}`, undefined, member.token), 404, 'NOT_FOUND');
    expectApiError(await service.api('PUT', `/collections/${id}/collaborators/${UNKNOWN_ID}`, { role: 'VIEWER' }, member.token), 404, 'NOT_FOUND', 'user');
    expectApiError(await service.api('PUT', `/collections/${id}/collaborators/${other.userId}`, { role: 'OWNER' }, member.token), 400, 'INVALID_BODY', 'role');
    // Admins see and act on every collection.
    expect((await service.api('GET', `/collections/${id}`)).status).toBe(200);
  });

  it('refuses viewers of the account to create collections', async () => {
    expectApiError(await service.api('POST', '/collections', { name: 'Nope' }, viewer.token), 403, 'FORBIDDEN');
  });

  it('deletes a collection: its assets stay, the COLLECTIONS field no longer finds them', async () => {
    const { body } = await service.api('POST', '/collections', { name: 'Gone', assetIds: [assetIds[2]] }, member.token);
    const id: string = body.result.id;
    const deleted = await service.api('DELETE', `/collections/${id}`, undefined, member.token);
    expect(deleted.body.result).toMatchObject({ id, name: 'Gone' });
    expectApiError(await service.api('GET', `/collections/${id}`, undefined, member.token), 404, 'NOT_FOUND');
    expect(await searchIds(inCollection(id))).toEqual([]);
    expect((await service.api('GET', `/assets/${assetIds[2]}`)).status).toBe(200);
  });

  it('drops a deleted asset from its collections', async () => {
    const [extra] = (await service.api('POST', '/assets-creations', { count: 1 })).body.results;
    const { body } = await service.api('POST', '/collections', { name: 'Loses one', assetIds: [extra.result.id, assetIds[3]] }, member.token);
    expect((await service.api('DELETE', `/assets/${extra.result.id}`)).status).toBe(200);
    expect((await service.api('GET', `/collections/${body.result.id}`, undefined, member.token)).body.result.numberOfAssets).toBe(1);
  });

  describe('POST /collection-searches', () => {
    let ownedByOther: string;
    let sharedWithOther: string;
    beforeAll(async () => {
      ownedByOther = (await service.api('POST', '/collections', { name: 'b-mine' }, other.token)).body.result.id;
      sharedWithOther = (await service.api('POST', '/collections', { name: 'A-shared' }, member.token)).body.result.id;
      await service.api('PUT', `/collections/${sharedWithOther}/collaborators/${other.userId}`, { role: 'VIEWER' }, member.token);
    });
    const search = (body: unknown, token?: string) => service.api('POST', '/collection-searches', body, token);
    const names = (answer: ApiAnswer): string[] => answer.body.results.map((entry: { result: { name: string } }) => entry.result.name);

    it('finds the collections a user is associated with, sorted by name either way', async () => {
      const criterion = { type: 'ASSOCIATED_WITH_USER', userId: other.userId };
      const asc = await search({ criterion, sorts: [{ field: 'NAME', order: 'ASC' }] });
      expect(asc.status, asc.text).toBe(200);
      expect(names(asc)).toEqual(['A-shared', 'b-mine']);
      expect(asc.body.totalResults).toBe(2);
      const desc = await search({ criterion, sorts: [{ field: 'NAME', order: 'DESC' }] });
      expect(names(desc)).toEqual(['b-mine', 'A-shared']);
      const paged = await search({ criterion, sorts: [{ field: 'NAME' }], from: 1, pageSize: 1 });
      expect(names(paged)).toEqual(['b-mine']);
      expect(paged.body.totalResults).toBe(2);
    });

    it('shows a caller only the collections they may view', async () => {
      const all = await search({ criterion: { type: 'MATCH_ALL' }, sorts: [] }, other.token);
      expect(names(all).sort()).toEqual(['A-shared', 'b-mine']);
      const byMember = await search({ criterion: { type: 'ASSOCIATED_WITH_USER', userId: member.userId }, sorts: [] }, other.token);
      expect(names(byMember)).toEqual(['A-shared']);
      const byName = await search({ criterion: { type: 'AND', criteria: [{ type: 'FIELD_EQUALS', field: 'NAME', value: 'b-MINE' }, { type: 'NOT', criterion: { type: 'FIELD_EQUALS', field: 'ID', value: sharedWithOther } }] }, sorts: [] });
      expect(byName.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([ownedByOther]);
    });

    it('requires criterion and sorts, and refuses unknown criteria and sort fields', async () => {
      expectApiError(await search({ sorts: [] }), 400, 'INVALID_CRITERION', 'criterion');
      expectApiError(await search({ criterion: null, sorts: [] }), 400, 'INVALID_CRITERION', 'criterion');
      expectApiError(await search({ criterion: { type: 'MATCH_ALL' } }), 400, 'INVALID_SORT', 'sorts');
      expectApiError(await search({ criterion: { type: 'FIELD_IN', field: 'NAME', values: [] }, sorts: [] }), 400, 'INVALID_BODY');
      expectApiError(await search({ criterion: { type: 'MATCH_ALL' }, sorts: [{ field: 'SIZE' }] }), 400, 'INVALID_BODY', 'sorts');
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';

describe('field views', () => {
  let service: TestService;
  let viewerToken: string;
  let credit: string;
  let place: string;
  beforeAll(async () => {
    service = await startTestService();
    viewerToken = (await addUser(service, 'viewer@example.test', 'viewer')).token;
    credit = (await service.api('POST', '/fields', { name: 'Credit' })).body.result.id;
    place = (await service.api('POST', '/fields', { name: 'Place' })).body.result.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('creates, reads, changes and deletes a field view, in the order given', async () => {
    const created = await service.api('POST', '/field-views', { name: 'Captioning', fieldIds: [place, credit] });
    expect(created.status).toBe(200);
    const view = created.body.result;
    expect(view).toMatchObject({ name: 'Captioning', fieldIds: [place, credit] });
    expect((await service.api('GET', `/field-views/${view.id}`, undefined, viewerToken)).body.result).toEqual(view);
    const renamed = await service.api('PATCH', `/field-views/${view.id}`, { name: 'Caption' });
    expect(renamed.body.result).toMatchObject({ name: 'Caption', fieldIds: [place, credit] });
    const reordered = await service.api('PATCH', `/field-views/${view.id}`, { fieldIds: [credit] });
    expect(reordered.body.result).toMatchObject({ name: 'Caption', fieldIds: [credit] });
    const listed = await service.api('GET', '/field-views');
    expect(listed.body.totalResults).toBe(1);
    expect((await service.api('DELETE', `/field-views/${view.id}`)).status).toBe(200);
    expect((await service.api('GET', `/field-views/${view.id}`)).body.code).toBe('NOT_FOUND');
  });

  it('leaves out a field deleted after the view was made', async () => {
    const gone = (await service.api('POST', '/fields', { name: 'Gone soon' })).body.result.id;
    const view = (await service.api('POST', '/field-views', { name: 'With gone', fieldIds: [gone, credit] })).body.result;
    await service.api('DELETE', `/fields/${gone}`);
    expect((await service.api('GET', `/field-views/${view.id}`)).body.result.fieldIds).toEqual([credit]);
  });

  it.each([
    [{ name: 'x', fieldIds: ['no-such-field'] }, 400, 'INVALID_BODY', 'fieldIds.0'],
    [{ name: 'x', fieldIds: ['a', 'a'] }, 400, 'INVALID_BODY', 'twice'],
    [{ name: '', fieldIds: [] }, 400, 'INVALID_BODY', 'name'],
    [{ name: 'With gone', fieldIds: [] }, 409, 'FIELD_VIEW_NAME_TAKEN', 'With gone'],
  ])('refuses %j with %i %s', async (body, status, code, where) => {
    const answer = await service.api('POST', '/field-views', body);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body.message).toContain(where);
  });

  it('lets only admins change views', async () => {
    const refused = await service.api('POST', '/field-views', { name: 'Mine', fieldIds: [] }, viewerToken);
    expect(refused.status).toBe(403);
    expect((await service.api('GET', '/field-views')).body.results.map((entry: { result: { name: string } }) => entry.result.name)).not.toContain('Mine');
  });
});

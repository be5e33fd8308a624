import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

describe('fields and folder settings', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('lists the built-in fields as a bare array ordered by name', async () => {
    const { status, body } = await service.api('GET', '/fields');
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((field: { name: string }) => field.name)).toEqual(['Folders', 'Keywords']);
    expect(body[0]).toMatchObject({ hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true });
  });

  it('points folder settings at the Folders field, which cannot be deleted', async () => {
    const { body } = await service.api('GET', '/folder-settings');
    const folders = await service.api('GET', `/fields/${body.result.fieldId}`);
    expect(folders.body.result.name).toBe('Folders');
    const deleted = await service.api('DELETE', `/fields/${body.result.fieldId}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.code).toBe('FIELD_INDESTRUCTABLE');
  });

  it('creates, renames and deletes a field, refusing duplicate names', async () => {
    const created = await service.api('POST', '/fields', { name: 'Photographer', hasFixedOptions: false, multiValue: false });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ name: 'Photographer', hasFixedOptions: false, hierarchical: false, indestructable: false });
    expect(created.body.permittedActions).toContainEqual({ resourceType: 'FIELD', resourceId: created.body.result.id, action: 'EDIT' });
    const duplicate = await service.api('POST', '/fields', { name: 'Photographer' });
    expect(duplicate.body.code).toBe('FIELD_NAME_TAKEN');
    const renamed = await service.api('PATCH', `/fields/${created.body.result.id}`, { name: 'Credit' });
    expect(renamed.body.result.name).toBe('Credit');
    expect((await service.api('DELETE', `/fields/${created.body.result.id}`)).status).toBe(200);
    expect((await service.api('GET', `/fields/${created.body.result.id}`)).body.code).toBe('NOT_FOUND');
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'x', hierarchical: true }, 'hierarchical'],
    [[1, 2], '(body)'],
  ])('answers 400 with the offending property for %j', async (input, where) => {
    const { status, body } = await service.api('POST', '/fields', input);
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request', path: '/fields', code: 'INVALID_BODY' });
    expect(body.message).toContain(where === 'hierarchical' ? 'hierarchical' : where);
    expect(typeof body.timestamp).toBe('string');
  });
});

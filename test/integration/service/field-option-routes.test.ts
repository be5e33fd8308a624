import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';

describe('field options', () => {
  let service: TestService;
  let foldersId: string;

  /** Creates options in one batch; returns their ids by batchItemId. */
  async function createOptions(items: { key: string; value: string; parentId?: string | null; position?: number; fieldId?: string }[]): Promise<Record<string, string>> {
    const { status, body } = await service.api('POST', '/field-option-batches', {
      items: items.map(({ key, fieldId, ...rest }) => ({ batchItemId: key, fieldId: fieldId ?? foldersId, ...rest })),
    });
    expect(status).toBe(200);
    expect(body.failures).toEqual({});
    return Object.fromEntries(Object.entries(body.successes).map(([key, entry]: [string, any]) => [key, entry.result.id]));
  }

  async function search(criterion: unknown, sorts?: unknown, paging: { from?: number; pageSize?: number } = {}): Promise<any> {
    return service.api('POST', '/field-option-searches', { criterion, ...(sorts === undefined ? {} : { sorts }), ...paging });
  }

  const childrenOf = (parentId: string | null) =>
    parentId === null
      ? { type: 'AND', criteria: [{ type: 'FIELD_EQUALS', field: 'FIELD_ID', value: foldersId }, { type: 'FIELD_IS_EMPTY', field: 'PARENT_ID' }] }
      : { type: 'FIELD_EQUALS', field: 'PARENT_ID', value: parentId };

  beforeAll(async () => {
    service = await startTestService();
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('creates a tree in batches and answers each option with its parent chain', async () => {
    const top = await createOptions([{ key: 'brand', value: 'Brand' }]);
    const mid = await createOptions([{ key: 'logos', value: 'Logos', parentId: top.brand }]);
    const leaf = await createOptions([{ key: 'svg', value: 'SVG ✓ 𝄞', parentId: mid.logos }]);
    const { status, body } = await service.api('GET', `/field-options/${leaf.svg}`);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      id: leaf.svg,
      fieldId: foldersId,
      value: 'SVG ✓ 𝄞',
      position: 0,
      leaf: true,
      numberOfChildren: 0,
      parent: { id: mid.logos, value: 'Logos', leaf: false, numberOfChildren: 1, parent: { id: top.brand, value: 'Brand', parent: null } },
    });
    expect(body.permittedActions).toContainEqual({ resourceType: 'FIELD_OPTION', resourceId: leaf.svg, action: 'EDIT' });
  });

  it('reports per-item failures without failing the batch', async () => {
    const text = await service.api('POST', '/fields', { name: 'Caption', hasFixedOptions: false });
    const flat = await service.api('POST', '/fields', { name: 'Colour', hasFixedOptions: true });
    const [existing] = (await search(childrenOf(null))).body.results;
    const { status, body } = await service.api('POST', '/field-option-batches', {
      items: [
        { batchItemId: 'ok', fieldId: foldersId, value: 'Campaigns' },
        { batchItemId: 'duplicate', fieldId: foldersId, value: existing.result.value },
        { batchItemId: 'slash', fieldId: foldersId, value: 'a/b' },
        { batchItemId: 'dots', fieldId: foldersId, value: '..' },
        { batchItemId: 'text', fieldId: text.body.result.id, value: 'x' },
        { batchItemId: 'flat-parent', fieldId: flat.body.result.id, value: 'Red', parentId: existing.result.id },
        { batchItemId: 'foreign-parent', fieldId: foldersId, value: 'Z', parentId: 'no-such-option' },
        { batchItemId: 'no-field', fieldId: 'nope', value: 'x' },
      ],
    });
    expect(status).toBe(200);
    expect(Object.keys(body.successes)).toEqual(['ok']);
    expect(Object.fromEntries(Object.entries(body.failures).map(([key, error]: [string, any]) => [key, error.code]))).toEqual({
      duplicate: 'FIELD_OPTION_CONFLICT',
      slash: 'INVALID_BODY',
      dots: 'INVALID_BODY',
      text: 'INVALID_BODY',
      'flat-parent': 'INVALID_BODY',
      'foreign-parent': 'INVALID_BODY',
      'no-field': 'NOT_FOUND',
    });
    expect(body.failures.slash.message).toContain('"/"');
  });

  it('walks the tree level by level with PARENT_ID searches, in position order', async () => {
    const { parent } = await createOptions([{ key: 'parent', value: 'Walk' }]);
    const kids = await createOptions([
      { key: 'c', value: 'Charlie', parentId: parent },
      { key: 'a', value: 'alpha', parentId: parent },
      { key: 'b', value: 'Bravo', parentId: parent, position: 0 },
    ]);
    const byPosition = await search(childrenOf(parent ?? null), [{ field: 'POSITION', order: 'ASC' }]);
    expect(byPosition.body.totalResults).toBe(3);
    expect(byPosition.body.results.map((entry: any) => [entry.result.value, entry.result.position])).toEqual([
      ['Bravo', 0],
      ['Charlie', 1],
      ['alpha', 2],
    ]);
    const byValue = await search(childrenOf(parent ?? null), [{ field: { type: 'FIXED', fieldName: 'VALUE' }, order: 'DESC' }]);
    expect(byValue.body.results.map((entry: any) => entry.result.value)).toEqual(['Charlie', 'Bravo', 'alpha']);
    const page = await search(childrenOf(parent ?? null), [{ field: 'POSITION', order: 'ASC' }], { from: 1, pageSize: 1 });
    expect(page.body).toMatchObject({ totalResults: 3, results: [{ result: { id: kids.c } }] });
    const count = await search(childrenOf(parent ?? null), undefined, { pageSize: 0 });
    expect(count.body).toEqual({ results: [], totalResults: 3 });
  });

  it('matches values with wildcards, IN lists, NOT and OR', async () => {
    const { root } = await createOptions([{ key: 'root', value: 'Match' }]);
    await createOptions([
      { key: 'x', value: '50% off_sale', parentId: root },
      { key: 'y', value: '50 percent', parentId: root },
      { key: 'z', value: 'Other', parentId: root },
    ]);
    const under = childrenOf(root ?? null);
    const values = async (criterion: unknown) =>
      (await search({ type: 'AND', criteria: [under, criterion] }, [{ field: 'VALUE', order: 'ASC' }])).body.results.map((entry: any) => entry.result.value);
    expect(await values({ type: 'FIELD_MATCHES', field: 'VALUE', value: '50%*' })).toEqual(['50% off_sale']);
    expect(await values({ type: 'FIELD_MATCHES', field: 'VALUE', value: '50*' })).toEqual(['50 percent', '50% off_sale']);
    expect(await values({ type: 'FIELD_MATCHES', field: 'VALUE', value: '*_SALE' })).toEqual(['50% off_sale']);
    expect(await values({ type: 'FIELD_IN', field: 'VALUE', values: ['Other', 'nothing'] })).toEqual(['Other']);
    expect(await values({ type: 'NOT', criterion: { type: 'FIELD_MATCHES', field: 'VALUE', value: '50*' } })).toEqual(['Other']);
    expect(await values({ type: 'OR', criteria: [{ type: 'FIELD_EQUALS', field: 'VALUE', value: 'Other' }, { type: 'FIELD_EQUALS', field: 'POSITION', value: 0 }] })).toEqual([
      '50% off_sale',
      'Other',
    ]);
    expect(await values({ type: 'FIELD_HAS_ANY_EQUAL', field: 'VALUE', values: [] })).toEqual([]);
  });

  it.each([
    [undefined, 'INVALID_CRITERION', 'criterion'],
    [{ type: 'FIELD_EQUALS', field: 'NAME', value: 'x' }, 'INVALID_CRITERION', 'criterion.field is "NAME"'],
    [{ type: 'AND', criteria: [{ type: 'MATCH_ALL' }, { type: 'BOGUS' }] }, 'INVALID_CRITERION', 'criterion.criteria[1].type is "BOGUS"'],
    [{ type: 'AND', criteria: [] }, 'INVALID_CRITERION', 'criterion.criteria must be a non-empty array'],
    [{ type: 'FIELD_EQUALS', field: 'POSITION', value: 'first' }, 'INVALID_CRITERION', 'POSITION'],
    [{ type: 'FIELD_IN', field: 'ID', values: 'x' }, 'INVALID_CRITERION', 'criterion.values'],
    [{ type: 'FIELD_MATCHES', field: 'POSITION', value: '1*' }, 'INVALID_CRITERION', 'wildcards'],
    ['MATCH_ALL', 'INVALID_CRITERION', 'must be an object'],
  ])('refuses criterion %j with %s', async (criterion, code, message) => {
    const { status, body } = await service.api('POST', '/field-option-searches', criterion === undefined ? {} : { criterion });
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(body.message).toContain(message);
  });

  it('refuses deep nesting, bad sorts and paging past 10,000', async () => {
    let deep: unknown = { type: 'MATCH_ALL' };
    for (let level = 0; level < 40; level++) deep = { type: 'NOT', criterion: deep };
    expect((await search(deep)).body.code).toBe('INVALID_CRITERION');
    expect((await search({ type: 'MATCH_ALL' }, [{ field: 'VALUE', order: 'UP' }])).body.code).toBe('INVALID_SORT');
    expect((await search({ type: 'MATCH_ALL' }, [{ field: 'DATE_LIVE' }])).body.code).toBe('INVALID_SORT');
    expect((await search({ type: 'MATCH_ALL' }, undefined, { from: 9_990, pageSize: 20 })).body.code).toBe('PAGING_LIMIT_EXCEEDED');
  });

  it('renames, moves and reorders an option, refusing cycles and sibling clashes', async () => {
    const ids = await createOptions([
      { key: 'a', value: 'Move A' },
      { key: 'b', value: 'Move B' },
    ]);
    const kids = await createOptions([
      { key: 'a1', value: 'One', parentId: ids.a },
      { key: 'a2', value: 'Two', parentId: ids.a },
      { key: 'a3', value: 'Three', parentId: ids.a },
      { key: 'b1', value: 'One', parentId: ids.b },
    ]);
    const renamed = await service.api('PATCH', `/field-options/${kids.a1}`, { value: 'Uno' });
    expect(renamed.body.result).toMatchObject({ value: 'Uno', parent: { id: ids.a } });

    const clash = await service.api('PATCH', `/field-options/${kids.b1}`, { parentId: ids.a, value: 'Two' });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('FIELD_OPTION_CONFLICT');

    const cycle = await service.api('PATCH', `/field-options/${ids.a}`, { parentId: kids.a2 });
    expect(cycle.status).toBe(409);
    const self = await service.api('PATCH', `/field-options/${ids.a}`, { parentId: ids.a });
    expect(self.status).toBe(409);

    // Move "Two" under B: it lands last there, and A's remaining children close the gap.
    const moved = await service.api('PATCH', `/field-options/${kids.a2}`, { parentId: ids.b });
    expect(moved.body.result).toMatchObject({ position: 1, parent: { id: ids.b } });
    const remaining = await search(childrenOf(ids.a ?? null), [{ field: 'POSITION', order: 'ASC' }]);
    expect(remaining.body.results.map((entry: any) => [entry.result.value, entry.result.position])).toEqual([
      ['Uno', 0],
      ['Three', 1],
    ]);
    // Reorder "Three" to the front.
    await service.api('PATCH', `/field-options/${kids.a3}`, { position: 0 });
    const reordered = await search(childrenOf(ids.a ?? null), [{ field: 'POSITION', order: 'ASC' }]);
    expect(reordered.body.results.map((entry: any) => entry.result.value)).toEqual(['Three', 'Uno']);
    // To the top level.
    const top = await service.api('PATCH', `/field-options/${kids.a3}`, { parentId: null });
    expect(top.body.result.parent).toBeNull();
  });

  it('deletes only options no asset and no child uses', async () => {
    const { assetId, asset } = await uploadNewAsset(service, '/Delete Me/Inner/file.txt', Buffer.from('hello'));
    const [innerId] = asset.metadata.values[foldersId];
    const inner = await service.api('GET', `/field-options/${innerId}`);
    const outerId = inner.body.result.parent.id;

    const hasChild = await service.api('DELETE', `/field-options/${outerId}`);
    expect(hasChild.status).toBe(409);
    expect(hasChild.body.code).toBe('FIELD_OPTION_IN_USE');
    const used = await service.api('DELETE', `/field-options/${innerId}`);
    expect(used.body.code).toBe('FIELD_OPTION_IN_USE');

    await service.api('PATCH', `/assets/${assetId}`, { metadata: { values: { [foldersId]: [] } } });
    expect((await service.api('DELETE', `/field-options/${innerId}`)).status).toBe(200);
    expect((await service.api('DELETE', `/field-options/${outerId}`)).status).toBe(200);
    expect((await service.api('GET', `/field-options/${outerId}`)).body.code).toBe('NOT_FOUND');
  });

  it('files uploads into existing folders instead of creating duplicates', async () => {
    const first = await uploadNewAsset(service, '/Shared/Dup/a.txt', Buffer.from('a'));
    const second = await uploadNewAsset(service, '/Shared/Dup/b.txt', Buffer.from('b'));
    expect(second.asset.metadata.values[foldersId]).toEqual(first.asset.metadata.values[foldersId]);
    const shared = await search({ type: 'AND', criteria: [childrenOf(null), { type: 'FIELD_EQUALS', field: 'VALUE', value: 'Shared' }] });
    expect(shared.body.totalResults).toBe(1);
  });
});

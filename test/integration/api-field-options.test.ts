import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/main/api/create-api-client.js';
import { walkFieldOptions } from '../../src/main/api/walk-field-options.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { clientFor } from '../support/api-client-service.js';

describe('field options against the real service', () => {
  let service: TestService;
  let api: ApiClient;
  let foldersId: string;

  beforeEach(async () => {
    service = await startTestService();
    // A small page size, so listing a level takes several pages.
    api = await clientFor(service, { pageSize: 2 });
    foldersId = await api.foldersFieldId();
  });

  afterEach(async () => {
    api.close();
    await service.dispose();
  });

  async function create(value: string, parentId: string | null, position?: number): Promise<string> {
    const outcome = await api.createFieldOptions([{ batchItemId: value, fieldId: foldersId, value, parentId, ...(position === undefined ? {} : { position }) }]);
    const option = outcome.successes[value];
    if (option === undefined) throw new Error(`could not create ${value}: ${outcome.failures[value]?.message ?? '?'}`);
    return option.id;
  }

  it('finds the Folders field among the fields', async () => {
    const fields = await api.listFields();
    expect(fields.find((field) => field.id === foldersId)).toMatchObject({ hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true });
  });

  it('walks the tree with one PARENT_ID search per option that has children, paging through wide levels', async () => {
    const brand = await create('Brand', null);
    await create('Campaigns', null);
    await create('Archive', null);
    const fonts = await create('Fonts', brand);
    for (const name of ['Logos', 'Icons', 'Photos', 'Videos', 'Print']) await create(name, brand);
    const serif = await create('Serif', fonts);
    // Uploading to a path creates the folders on the way.
    await api.createAssetsWithUploads([{ batchItemId: 'u', path: '/Campaigns/2026/Spring/poster.png', size: 10 }]);

    const asked: (string | null)[] = [];
    const counted = { listFieldOptionChildren: (fieldId: string, parentId: string | null) => (asked.push(parentId), api.listFieldOptionChildren(fieldId, parentId)) };
    const nodes = await walkFieldOptions(counted, foldersId);
    const paths = nodes.map((node) => node.path.join('/'));
    const idOf = (path: string): string | undefined => nodes.find((node) => node.path.join('/') === path)?.option.id;
    // Leaves (the service says so) are not searched: the top level, Brand, Campaigns, Fonts and 2026 are.
    expect(new Set(asked)).toEqual(new Set([null, brand, idOf('Campaigns'), fonts, idOf('Campaigns/2026')]));
    expect(asked).toHaveLength(5);
    expect(new Set(paths)).toEqual(
      new Set([
        'Brand',
        'Campaigns',
        'Archive',
        'Brand/Fonts',
        'Brand/Logos',
        'Brand/Icons',
        'Brand/Photos',
        'Brand/Videos',
        'Brand/Print',
        'Brand/Fonts/Serif',
        'Campaigns/2026',
        'Campaigns/2026/Spring',
      ]),
    );
    // Parents before children.
    expect(paths.indexOf('Brand')).toBeLessThan(paths.indexOf('Brand/Fonts'));
    expect(paths.indexOf('Brand/Fonts')).toBeLessThan(paths.indexOf('Brand/Fonts/Serif'));
    expect(nodes.find((node) => node.option.id === serif)?.parentId).toBe(fonts);

    const children = await api.listFieldOptionChildren(foldersId, brand);
    expect(children).toHaveLength(6);
    expect(children.map((child) => child.position)).toEqual([...children.map((child) => child.position)].sort((a, b) => a - b));

    const below = await walkFieldOptions(api, foldersId, { rootId: brand });
    expect(below.map((node) => node.path.join('/')).sort()).toEqual(['Fonts', 'Fonts/Serif', 'Icons', 'Logos', 'Photos', 'Print', 'Videos']);
  });

  it('reads an option with its parent chain, renames and moves it, and deletes it when unused', async () => {
    const brand = await create('Brand', null);
    const fonts = await create('Fonts', brand);
    const serif = await create('Serif', fonts);

    const option = await api.getFieldOption(serif);
    expect(option.value).toBe('Serif');
    expect(option.parent?.id).toBe(fonts);
    expect(option.parent?.parent?.id).toBe(brand);
    expect(option.parent?.parent?.parent).toBeNull();

    const moved = await api.changeFieldOption(serif, { value: 'Serifs', parentId: brand });
    expect(moved).toMatchObject({ value: 'Serifs', parent: { id: brand } });
    await expect(api.changeFieldOption(brand, { parentId: serif })).rejects.toMatchObject({ code: 'FIELD_OPTION_CONFLICT', status: 409 });

    // Still has a child: 409. Its child first, then it.
    await expect(api.deleteFieldOption(brand)).rejects.toMatchObject({ code: 'FIELD_OPTION_IN_USE', status: 409 });
    await api.deleteFieldOption(serif);
    await api.deleteFieldOption(fonts);
    await api.deleteFieldOption(brand);
    await expect(api.getFieldOption(brand)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('reports per-item failures of a batch as ApiErrors', async () => {
    await create('Brand', null);
    const outcome = await api.createFieldOptions([
      { batchItemId: 'dup', fieldId: foldersId, value: 'Brand', parentId: null },
      { batchItemId: 'bad', fieldId: foldersId, value: 'a/b', parentId: null },
      { batchItemId: 'ok', fieldId: foldersId, value: 'Other', parentId: null },
    ]);
    expect(Object.keys(outcome.successes)).toEqual(['ok']);
    expect(outcome.failures.dup).toMatchObject({ code: 'FIELD_OPTION_CONFLICT', status: 409 });
    expect(outcome.failures.bad).toMatchObject({ code: 'INVALID_BODY', status: 400 });
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { ASSET_COLUMNS, assetFromTuple, assetsRepo, FILE_COLUMNS, fileFromTuple, type AssetRow, type FileRow, type PreviewFacts } from './assets-repo.js';

describe('a page of assets rendered at once', () => {
  const db = openDatabase(':memory:');
  afterAll(() => db.close());
  const account = accountsRepo(db).createAccount('a', 'A', '2026-01-01T00:00:00.000Z');
  const seed = assetSeeder(db);
  const repo = assetsRepo(db);
  // Values out of field and insertion order, text needing escapes, an asset without values or file.
  const ids = [
    seed.insert({ accountId: account.id, id: 'z-last', values: { 'field-b': ['two', 'one'], 'field-a': ['a "quoted"\nline', 'é ✓ \u0001'] } }),
    seed.insert({ accountId: account.id, id: 'a-first', filename: null }),
    seed.insert({ accountId: account.id, id: 'm-middle', filename: 'name with "quotes".bin', values: { 'field-a': ['x'] } }),
  ];
  db.prepare("UPDATE asset_files SET width = 640, height = 480, added_by = 'someone' WHERE asset_id = 'm-middle'").run();
  const rows = ids.map((id) => repo.get({ accountId: account.id, folders: null }, id)).filter((row): row is AssetRow => row !== undefined);
  const preview = (file: FileRow): PreviewFacts => ({ previewUrl: `/previews/${file.sha256}`, previewState: 'AVAILABLE' });

  it('renders each asset as rendering it alone does, in the page order', () => {
    const page = repo.renderAll(rows, () => preview);
    expect(page.map((asset) => asset.id)).toEqual(ids);
    expect(JSON.stringify(page)).toBe(JSON.stringify(rows.map((row) => repo.render(row, preview))));
    expect(page[0]?.metadata.values).toEqual({ 'field-a': ['a "quoted"\nline', 'é ✓ \u0001'], 'field-b': ['two', 'one'] });
  });

  it('reads every file column back as the row has it', () => {
    const file = db.prepare<[], FileRow>("SELECT * FROM asset_files WHERE asset_id = 'm-middle'").get();
    expect(file).toBeDefined();
    if (file === undefined) return;
    const read: unknown = FILE_COLUMNS.map((column) => file[column]);
    expect(fileFromTuple(read as Parameters<typeof fileFromTuple>[0])).toStrictEqual(file);
    expect(Object.keys(file)).toEqual([...FILE_COLUMNS]);
  });

  it('reads every asset column back as the row has it, with sort values after them', () => {
    const row = rows[2];
    expect(row).toBeDefined();
    if (row === undefined) return;
    // As a page statement reads it: the columns in ASSET_COLUMNS' order, then a sort key's value.
    const read: unknown = [...ASSET_COLUMNS.map((column) => row[column]), 'sort value'];
    expect(assetFromTuple(read as Parameters<typeof assetFromTuple>[0])).toStrictEqual(row);
    expect(Object.keys(row)).toEqual([...ASSET_COLUMNS]);
  });
});

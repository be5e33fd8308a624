import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { fieldsRepo } from '../fields/fields-repo.js';
import { fieldOptionsRepo } from '../fields/field-options-repo.js';
import { ServiceError } from '../errors/service-error.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { ASSETS_FROM, compileAssetQuery } from './asset-query.js';
import { FIXED_FIELD_NAMES } from './fixed-fields.js';
import { assetSearchRunner } from './run-asset-search.js';
import { searchAccount } from './search-account.js';
import { collectionsRepo } from '../collections/collections-repo.js';

// One real SQLite database (in memory, all migrations applied) with a small, fully known account.
const db = openDatabase(':memory:');
const now = '2026-01-01T00:00:00.000Z';
const accounts = accountsRepo(db);
const fields = fieldsRepo(db);
const options = fieldOptionsRepo(db);
const account = accounts.createAccount('a', 'A', now);
const other = accounts.createAccount('b', 'B', now);
const folders = fields.create(account.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, role: 'FOLDERS' }, now).id;
const keywords = fields.create(account.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, role: 'KEYWORDS' }, now).id;
const caption = fields.create(account.id, { name: 'Caption', hasFixedOptions: false, hierarchical: false, multiValue: false }, now).id;
const colour = fields.create(account.id, { name: 'Colour', hasFixedOptions: true, hierarchical: false, multiValue: true }, now).id;
const foreignField = fields.create(other.id, { name: 'Caption', hasFixedOptions: false, hierarchical: false, multiValue: false }, now).id;
const folder = (...path: string[]) => options.ensurePath(account.id, folders, path);
const [brand, logos, old, photos, misc] = [folder('Brand'), folder('Brand', 'Logos'), folder('Brand', 'Logos', 'Old'), folder('Brand', 'Photos'), folder('Misc')];
const option = (value: string) => options.create({ account_id: account.id, field_id: colour, parent_id: null, value }).id;
const [red, blue] = [option('Red'), option('Blue')];
const A1_MD5 = 'abcdef0123456789abcdef0123456789';

const seed = assetSeeder(db);
const base = { accountId: account.id };
seed.insert({ ...base, id: 'a1', filename: 'logo.png', fileType: 'IMAGE', checksum: A1_MD5, stagedBy: 'u1', dateStaged: '2026-01-01T10:00:00.000Z', dateLive: '2026-01-05T12:00:00.000Z', dateLastModified: '2026-01-10T00:00:00.000Z', dateLastFileAdded: '2026-01-01T10:00:00.000Z', values: { [folders]: [logos], [keywords]: ['red', 'Brand'], [caption]: ['Hello World'], [colour]: [red] } });
seed.insert({ ...base, id: 'a2', filename: 'Logo_Final 100%.PNG', fileType: 'IMAGE', stagedBy: 'u1', dateStaged: '2026-02-01T00:00:00.000Z', dateLive: '2026-02-02T08:30:00.000Z', dateLastModified: '2026-02-03T00:00:00.000Z', values: { [folders]: [old], [keywords]: ['blue'], [caption]: ['42'], [colour]: [blue, red] } });
seed.insert({ ...base, id: 'a3', filename: 'report.pdf', fileType: 'DOCUMENT', stagedBy: 'u2', dateLive: '2026-03-01T00:00:00.000Z', dateLastModified: '2026-03-02T00:00:00.000Z', values: { [folders]: [photos], [caption]: ['7.5'] } });
seed.insert({ ...base, id: 'a4', state: 'STAGED', filename: 'draft*.psd', stagedBy: 'u2', dateLastModified: '2026-03-10T00:00:00.000Z', values: { [folders]: [misc], [keywords]: ['red'] } });
seed.insert({ ...base, id: 'a5', state: 'PENDING_APPROVAL', filename: 'video.mp4', fileType: 'VIDEO', datePendingApproval: '2026-03-15T00:00:00.000Z', dateLastModified: '2026-03-15T00:00:00.000Z' });
seed.insert({ ...base, id: 'a6', state: 'BINNED', filename: 'old.png', fileType: 'IMAGE', dateLastModified: '2026-03-20T00:00:00.000Z', values: { [folders]: [logos] } });
seed.insert({ ...base, id: 'a7', filename: null, stagedBy: null, dateStaged: null, dateLive: '2026-04-01T00:00:00.000Z', dateLastModified: '2026-04-01T00:00:00.000Z' });
seed.insert({ ...base, id: 'a8', filename: 'notes.txt', fileType: 'DOCUMENT', stagedBy: 'u1', dateLive: '2026-04-02T00:00:00.000Z', dateLastModified: '2026-04-02T00:00:00.000Z', values: { [folders]: [misc, logos], [caption]: ['hello world'] } });
seed.insert({ accountId: other.id, id: 'b1', filename: 'logo.png', fileType: 'IMAGE' });
const collections = collectionsRepo(db);
const c1 = collections.create(account.id, 'u1', 'Launch', null, now).id;
const c2 = collections.create(account.id, 'u2', 'Reports', null, now).id;
collections.addAssets(c1, ['a1', 'a3', 'a6'], now);
collections.addAssets(c2, ['a3'], now);

afterAll(() => db.close());

const searcher = searchAccount(fields, { accountId: account.id, folders: null });
const runner = assetSearchRunner(db);
const LIVE = ['a1', 'a2', 'a3', 'a7', 'a8'];
const ALL = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
const ANY_STATE = { type: 'FIELD_EXISTS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' } };

const fixed = (fieldName: string) => ({ type: 'FIXED', fieldName });
const custom = (fieldId: string) => ({ type: 'FIELD', fieldId });
const eq = (field: object, value: unknown, extra: object = {}) => ({ type: 'FIELD_EQUALS', field, value, ...extra });
const isIn = (field: object, values: unknown[], extra: object = {}) => ({ type: 'FIELD_IN', field, values, ...extra });
const empty = (field: object) => ({ type: 'FIELD_IS_EMPTY', field });
const exists = (field: object) => ({ type: 'FIELD_EXISTS', field });
const matches = (field: object, value: unknown) => ({ type: 'FIELD_MATCHES', field, value });
const and = (...criteria: unknown[]) => ({ type: 'AND', criteria });
const or = (...criteria: unknown[]) => ({ type: 'OR', criteria });
const not = (criterion: unknown) => ({ type: 'NOT', criterion });

function ids(criterion: unknown, sorts: unknown = []): string[] {
  const query = compileAssetQuery(searcher, criterion, sorts);
  return db.prepare<[object], string>(`SELECT a.id FROM ${ASSETS_FROM} WHERE ${query.where} ORDER BY ${query.orderBy}`).pluck().all(query.params);
}

function failure(criterion: unknown, sorts: unknown): ServiceError {
  try {
    compileAssetQuery(searcher, criterion, sorts);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('compiled without an error');
}

const matchCases: [string, unknown, string[]][] = [
  ['MATCH_ALL (default LIVE filter)', { type: 'MATCH_ALL' }, LIVE],
  ['AND', and(eq(fixed('FILE_TYPE'), 'IMAGE'), matches(fixed('FILENAME'), 'logo*')), ['a1', 'a2']],
  ['OR', or(eq(fixed('ASSET_ID'), 'a3'), eq(fixed('ASSET_ID'), 'a7')), ['a3', 'a7']],
  ['NOT is two-valued (an asset without a file is "not an image")', not(eq(fixed('FILE_TYPE'), 'IMAGE')), ['a3', 'a7', 'a8']],
  ['ASSET_ID equals', eq(fixed('ASSET_ID'), 'a2'), ['a2']],
  ['ASSET_ID in, other accounts invisible', isIn(fixed('ASSET_ID'), ['a1', 'a8', 'b1']), ['a1', 'a8']],
  ['FIELD_HAS_ANY_EQUAL alias', { type: 'FIELD_HAS_ANY_EQUAL', field: fixed('ASSET_ID'), values: ['a3'] }, ['a3']],
  ['FIELD_IN with no values', isIn(fixed('ASSET_ID'), []), []],
  ['ASSET_ID is never empty', empty(fixed('ASSET_ID')), []],
  ['FILENAME equals', eq(fixed('FILENAME'), 'logo.png'), ['a1']],
  ['FILENAME wildcard, % is literal', matches(fixed('FILENAME'), '*100%*'), ['a2']],
  ['FILENAME wildcard, _ is literal, case-insensitive', matches(fixed('FILENAME'), 'LOGO_*'), ['a2']],
  ['FILENAME escaped star', and(eq(fixed('LIFECYCLE_STATE'), 'STAGED'), matches(fixed('FILENAME'), 'draft\\*.psd')), ['a4']],
  ['FILENAME escaped star does not match other text', and(eq(fixed('LIFECYCLE_STATE'), 'STAGED'), matches(fixed('FILENAME'), 'draft\\*x')), []],
  ['FILENAME is empty (no current file)', empty(fixed('FILENAME')), ['a7']],
  ['FILENAME exists', exists(fixed('FILENAME')), ['a1', 'a2', 'a3', 'a8']],
  ['FILENAME text range', matches(fixed('FILENAME'), '[m TO s}'), ['a3', 'a8']],
  ['KEYWORDS equals', eq(fixed('KEYWORDS'), 'red'), ['a1']],
  ['KEYWORDS in', isIn(fixed('KEYWORDS'), ['blue', 'Brand']), ['a1', 'a2']],
  ['KEYWORDS is empty', empty(fixed('KEYWORDS')), ['a3', 'a7', 'a8']],
  ['KEYWORDS exists', exists(fixed('KEYWORDS')), ['a1', 'a2']],
  ['KEYWORDS wildcard', matches(fixed('KEYWORDS'), 'BR*'), ['a1']],
  ['FILE_TYPE in', isIn(fixed('FILE_TYPE'), ['DOCUMENT', 'VIDEO']), ['a3', 'a8']],
  ['FILE_TYPE is empty', empty(fixed('FILE_TYPE')), ['a7']],
  ['LIFECYCLE_STATE equals lifts the LIVE filter', eq(fixed('LIFECYCLE_STATE'), 'STAGED'), ['a4']],
  ['LIFECYCLE_STATE in', isIn(fixed('LIFECYCLE_STATE'), ['PENDING_APPROVAL', 'BINNED']), ['a5', 'a6']],
  ['LIFECYCLE_STATE under NOT', not(eq(fixed('LIFECYCLE_STATE'), 'LIVE')), ['a4', 'a5', 'a6']],
  ['LIFECYCLE_STATE wildcard', matches(fixed('LIFECYCLE_STATE'), '*ED'), ['a4', 'a6']],
  ['state named deep inside OR/NOT', or(eq(fixed('ASSET_ID'), 'a4'), not(eq(fixed('LIFECYCLE_STATE'), 'BINNED'))), ['a1', 'a2', 'a3', 'a4', 'a5', 'a7', 'a8']],
  ['LIFECYCLE_STATE exists = every state', ANY_STATE, ALL],
  ['STAGED true', eq(fixed('STAGED'), true), ['a4']],
  ['STAGED "false"', eq(fixed('STAGED'), 'false'), ['a1', 'a2', 'a3', 'a5', 'a6', 'a7', 'a8']],
  ['STAGED_BY equals', eq(fixed('STAGED_BY'), 'u2'), ['a3']],
  ['STAGED_BY is empty', empty(fixed('STAGED_BY')), ['a7']],
  ['DATE_STAGED equals a day', eq(fixed('DATE_STAGED'), '2026-02-01'), ['a2']],
  ['DATE_STAGED inclusive day range', matches(fixed('DATE_STAGED'), '[2026-01-01 TO 2026-01-31]'), ['a1']],
  ['DATE_PENDING_APPROVAL exists (LIVE only)', exists(fixed('DATE_PENDING_APPROVAL')), []],
  ['DATE_PENDING_APPROVAL exists (any state)', and(ANY_STATE, exists(fixed('DATE_PENDING_APPROVAL'))), ['a5']],
  ['DATE_LIVE exclusive lower, open upper', matches(fixed('DATE_LIVE'), '{2026-01-05T12:00:00.000Z TO *]'), ['a2', 'a3', 'a7', 'a8']],
  ['DATE_LIVE exclusive upper', matches(fixed('DATE_LIVE'), '[* TO 2026-03-01T00:00:00Z}'), ['a1', 'a2']],
  ['DATE_LIVE inclusive upper', matches(fixed('DATE_LIVE'), '[* TO 2026-03-01T00:00:00Z]'), ['a1', 'a2', 'a3']],
  ['DATE_LIVE equals an instant', eq(fixed('DATE_LIVE'), '2026-02-02T08:30:00.000Z'), ['a2']],
  ['DATE_LIVE equals an instant with an offset', eq(fixed('DATE_LIVE'), '2026-02-02T10:30:00+02:00'), ['a2']],
  ['DATE_LAST_ASSET_FILE_ADDED is empty', empty(fixed('DATE_LAST_ASSET_FILE_ADDED')), ['a7']],
  ['DATE_LAST_ASSET_FILE_ADDED one-day range', matches(fixed('DATE_LAST_ASSET_FILE_ADDED'), '[2026-01-01 TO 2026-01-01]'), ['a1']],
  ['DATE_LAST_MODIFIED open range', matches(fixed('DATE_LAST_MODIFIED'), '[2026-03-01 TO *]'), ['a3', 'a7', 'a8']],
  ['DATE_LAST_MODIFIED in days', isIn(fixed('DATE_LAST_MODIFIED'), ['2026-01-10', '2026-04-02']), ['a1', 'a8']],
  ['COLLECTIONS equals (LIVE only)', eq(fixed('COLLECTIONS'), c1), ['a1', 'a3']],
  ['COLLECTIONS in (any state)', and(ANY_STATE, isIn(fixed('COLLECTIONS'), [c1, c2])), ['a1', 'a3', 'a6']],
  ['COLLECTIONS equals an unknown id', eq(fixed('COLLECTIONS'), 'c-unknown'), []],
  ['COLLECTIONS is empty (in no collection)', empty(fixed('COLLECTIONS')), ['a2', 'a7', 'a8']],
  ['NOT COLLECTIONS exists', not(exists(fixed('COLLECTIONS'))), ['a2', 'a7', 'a8']],
  ['COLLECTIONS exists', exists(fixed('COLLECTIONS')), ['a1', 'a3']],
  ['CHECKSUM equals, any case', eq(fixed('CHECKSUM'), A1_MD5.toUpperCase()), ['a1']],
  ['CHECKSUM wildcard', matches(fixed('CHECKSUM'), 'ABCDEF*'), ['a1']],
  ['Folders equals', eq(custom(folders), logos), ['a1', 'a8']],
  ['Folders equals with subfolders', eq(custom(folders), logos, { includeSubfolders: true }), ['a1', 'a2', 'a8']],
  ['Folders top level with subfolders', eq(custom(folders), brand, { includeSubfolders: true }), ['a1', 'a2', 'a3', 'a8']],
  ['Folders in', isIn(custom(folders), [photos, misc]), ['a3', 'a8']],
  ['Folders in with subfolders', isIn(custom(folders), [old, photos], { includeSubfolders: true }), ['a2', 'a3']],
  ['Folders is empty (assets in no folder)', empty(custom(folders)), ['a7']],
  ['Folders wildcard matches option values', matches(custom(folders), 'lo*'), ['a1', 'a8']],
  ['unknown option id matches nothing', eq(custom(folders), 'no-such-option'), []],
  ['text field equals is exact', eq(custom(caption), 'Hello World'), ['a1']],
  ['text field equals a number', eq(custom(caption), 42), ['a2']],
  ['text field wildcard is case-insensitive', matches(custom(caption), 'hello*'), ['a1', 'a8']],
  ['text field numeric range', matches(custom(caption), '[5 TO 50]'), ['a2', 'a3']],
  ['text field exclusive numeric range', matches(custom(caption), '{7.5 TO *]'), ['a2']],
  ['text field text range', matches(custom(caption), '[a TO i]'), ['a8']],
  ['option field equals', eq(custom(colour), red), ['a1', 'a2']],
  ['option field NOT in', not(isIn(custom(colour), [blue])), ['a1', 'a3', 'a7', 'a8']],
  ['option field wildcard on option value', matches(custom(colour), 'bl*'), ['a2']],
  ['option field exists', exists(custom(colour)), ['a1', 'a2']],
  ['values are bound, never spliced', eq(fixed('FILENAME'), "x'); DROP TABLE assets; --"), []],
];

describe('compileAssetQuery: criteria', () => {
  it.each(matchCases)('%s', (_name, criterion, expected) => {
    expect(ids(criterion)).toEqual(expected);
  });

  it('covers every fixed field and every criterion type', () => {
    const text = JSON.stringify(matchCases);
    for (const name of FIXED_FIELD_NAMES) expect(text, name).toContain(`"${name}"`);
    for (const type of ['AND', 'OR', 'NOT', 'MATCH_ALL', 'FIELD_EQUALS', 'FIELD_IN', 'FIELD_HAS_ANY_EQUAL', 'FIELD_IS_EMPTY', 'FIELD_EXISTS', 'FIELD_MATCHES']) {
      expect(text, type).toContain(`"type":"${type}"`);
    }
    expect(db.prepare('SELECT count(*) FROM assets').pluck().get()).toBe(9);
  });

  it('puts no request value into the SQL text', () => {
    const query = compileAssetQuery(searcher, and(eq(fixed('FILENAME'), 'DROP TABLE'), matches(custom(caption), '[SELECT TO *]')), []);
    expect(query.where).not.toMatch(/DROP|SELECT \*|'SELECT/);
    expect(Object.values(query.params)).toContain('DROP TABLE');
  });
});

const sortCases: [string, unknown, unknown, string[]][] = [
  ['no sorts: asset id', { type: 'MATCH_ALL' }, [], LIVE],
  ['FILENAME ASC, case-insensitive, empty last', { type: 'MATCH_ALL' }, [{ field: fixed('FILENAME'), order: 'ASC' }], ['a1', 'a2', 'a8', 'a3', 'a7']],
  ['FILENAME DESC, empty still last', { type: 'MATCH_ALL' }, [{ field: fixed('FILENAME'), order: 'DESC' }], ['a3', 'a8', 'a2', 'a1', 'a7']],
  ['DATE_LIVE DESC', { type: 'MATCH_ALL' }, [{ field: fixed('DATE_LIVE'), order: 'DESC' }], ['a8', 'a7', 'a3', 'a2', 'a1']],
  ['KEYWORDS ASC sorts by the smallest value', { type: 'MATCH_ALL' }, [{ field: fixed('KEYWORDS'), order: 'ASC' }], ['a2', 'a1', 'a3', 'a7', 'a8']],
  ['KEYWORDS DESC sorts by the largest value, ties by id DESC', { type: 'MATCH_ALL' }, [{ field: fixed('KEYWORDS'), order: 'DESC' }], ['a1', 'a2', 'a8', 'a7', 'a3']],
  ['Folders ASC by option value', { type: 'MATCH_ALL' }, [{ field: custom(folders), order: 'ASC' }], ['a1', 'a8', 'a2', 'a3', 'a7']],
  ['text field ASC, case ties broken by id', { type: 'MATCH_ALL' }, [{ field: custom(caption) }], ['a2', 'a3', 'a1', 'a8', 'a7']],
  ['STAGED DESC', ANY_STATE, [{ field: fixed('STAGED'), order: 'DESC' }], ['a4', 'a8', 'a7', 'a6', 'a5', 'a3', 'a2', 'a1']],
  ['two keys', ANY_STATE, [{ field: fixed('LIFECYCLE_STATE'), order: 'ASC' }, { field: fixed('ASSET_ID'), order: 'DESC' }], ['a6', 'a8', 'a7', 'a3', 'a2', 'a1', 'a5', 'a4']],
  // In asset-id order a page after a cursor bounds the id subqueries past it (id-bound.ts).
  ['ASSET_ID ASC in a folder tree', eq(custom(folders), brand, { includeSubfolders: true }), [{ field: fixed('ASSET_ID'), order: 'ASC' }], ['a1', 'a2', 'a3', 'a8']],
  ['ASSET_ID DESC, NOT a keyword', not(eq(fixed('KEYWORDS'), 'red')), [{ field: fixed('ASSET_ID'), order: 'DESC' }], ['a8', 'a7', 'a3', 'a2']],
  ['no sorts, a collection OR a keyword OR no folder', or(eq(fixed('COLLECTIONS'), c2), eq(fixed('KEYWORDS'), 'blue'), empty(custom(folders))), [], ['a2', 'a3', 'a7']],
  ['every other fixed field sorts', ANY_STATE, ['STAGED_BY', 'DATE_STAGED', 'DATE_PENDING_APPROVAL', 'DATE_LAST_ASSET_FILE_ADDED', 'DATE_LAST_MODIFIED', 'FILE_TYPE', 'CHECKSUM'].map((name) => ({ field: fixed(name), order: 'ASC' })), ['a5', 'a6', 'a1', 'a2', 'a8', 'a3', 'a4', 'a7']],
];

describe('compileAssetQuery: sorts and keyset paging', () => {
  it.each(sortCases)('%s', (_name, criterion, sorts, expected) => {
    expect(ids(criterion, sorts)).toEqual(expected);
  });

  it.each(sortCases)('keyset and offset pages of 1, 2 and 3 reproduce: %s', (_name, criterion, sorts, expected) => {
    const query = compileAssetQuery(searcher, criterion, sorts);
    for (const size of [1, 2, 3]) {
      const scrolled: string[] = [];
      let page = runner.pageAfter(query, undefined, size);
      while (page.rows.length > 0) {
        scrolled.push(...page.rows.map((row) => row.id));
        page = runner.pageAfter(query, page.last, size);
      }
      expect(scrolled).toEqual(expected);
      const paged: string[] = [];
      for (let from = 0; from < expected.length; from += size) paged.push(...runner.page(query, from, size).map((row) => row.id));
      expect(paged).toEqual(expected);
    }
    expect(runner.count(query)).toBe(expected.length);
  });
});

const nested = (depth: number): unknown => {
  let criterion: unknown = { type: 'MATCH_ALL' };
  for (let level = 1; level < depth; level++) criterion = not(criterion);
  return criterion;
};
const manyValues = Array.from({ length: 1000 }, (_, index) => `v${index}`);

const errorCases: [string, unknown, unknown, string, string[]][] = [
  ['missing criterion', undefined, [], 'INVALID_CRITERION', ['criterion', 'required']],
  ['criterion not an object', 'MATCH_ALL', [], 'INVALID_CRITERION', ['criterion']],
  ['unknown type', { type: 'BOGUS' }, [], 'INVALID_CRITERION', ['criterion.type', '"BOGUS"']],
  ['unknown type deep inside', and({ type: 'MATCH_ALL' }, or({ type: 'FIELD_BETWEEN' })), [], 'INVALID_CRITERION', ['criterion.criteria[1].criteria[0].type']],
  ['unknown fixed field', and({ type: 'MATCH_ALL' }, eq(fixed('NOPE'), 'x')), [], 'INVALID_CRITERION', ['criterion.criteria[1].field.fieldName', '"NOPE"']],
  ['unknown field reference type', eq({ type: 'ATTRIBUTE', id: 'x' }, 'x'), [], 'INVALID_CRITERION', ['criterion.field.type']],
  ['missing field', { type: 'FIELD_EQUALS', value: 'x' }, [], 'INVALID_CRITERION', ['criterion.field']],
  ['unknown field id', eq(custom('nope'), 'x'), [], 'INVALID_CRITERION', ['criterion.field.fieldId', '"nope"']],
  ["another account's field", eq(custom(foreignField), 'x'), [], 'INVALID_CRITERION', ['criterion.field.fieldId']],
  ['V1 DATE_ADDED', matches(fixed('DATE_ADDED'), '[2026-01-01 TO *]'), [], 'UNSUPPORTED_V1_NAME', ['DATE_ADDED', 'DATE_LIVE']],
  ['V1 ADDED_BY', not(eq(fixed('ADDED_BY'), 'u1')), [], 'UNSUPPORTED_V1_NAME', ['criterion.criterion.field.fieldName', 'STAGED_BY']],
  ['value of the wrong type', eq(fixed('FILENAME'), { a: 1 }), [], 'INVALID_CRITERION', ['criterion.value']],
  ['boolean for a text field', eq(fixed('FILENAME'), true), [], 'INVALID_CRITERION', ['criterion.value']],
  ['FILE_TYPE not in its set', isIn(fixed('FILE_TYPE'), ['IMAGE', 'PICTURE']), [], 'INVALID_CRITERION', ['criterion.values[1]', 'IMAGE, VIDEO']],
  ['LIFECYCLE_STATE not in its set', eq(fixed('LIFECYCLE_STATE'), 'live'), [], 'INVALID_CRITERION', ['criterion.value']],
  ['STAGED not a boolean', eq(fixed('STAGED'), 'yes'), [], 'INVALID_CRITERION', ['criterion.value', 'true or false']],
  ['STAGED wildcard', matches(fixed('STAGED'), 't*'), [], 'INVALID_CRITERION', ['criterion.value']],
  ['not a date', eq(fixed('DATE_LIVE'), 'yesterday'), [], 'INVALID_CRITERION', ['criterion.value', 'ISO-8601']],
  ['impossible date', eq(fixed('DATE_LIVE'), '2026-02-30'), [], 'INVALID_CRITERION', ['criterion.value']],
  ['range end not a date', matches(fixed('DATE_LIVE'), '[2026-01-01 TO soon]'), [], 'INVALID_CRITERION', ['criterion.value', '"soon"']],
  ['range without an end', matches(fixed('FILENAME'), '[ TO x]'), [], 'INVALID_CRITERION', ['criterion.value', 'both sides']],
  ['range on an enum', matches(fixed('FILE_TYPE'), '[A TO Z]'), [], 'INVALID_CRITERION', ['criterion.value']],
  ['range on an option field', matches(custom(colour), '[a TO b]'), [], 'INVALID_CRITERION', ['criterion.value']],
  ['too many wildcards', matches(fixed('FILENAME'), 'a*b*c*d*e*f*g*h*i*j*k*l'), [], 'INVALID_CRITERION', ['criterion.value', 'wildcards']],
  ['includeSubfolders on a flat field', eq(custom(caption), 'x', { includeSubfolders: true }), [], 'INVALID_CRITERION', ['criterion.includeSubfolders']],
  ['includeSubfolders on a fixed field', eq(fixed('FILENAME'), 'x', { includeSubfolders: true }), [], 'INVALID_CRITERION', ['criterion.includeSubfolders']],
  ['empty AND', and(), [], 'INVALID_CRITERION', ['criterion.criteria', 'at least one']],
  ['FIELD_IN with too many values', isIn(fixed('ASSET_ID'), [...manyValues, 'one more']), [], 'INVALID_CRITERION', ['criterion.values']],
  ['too many values in all', or(...Array.from({ length: 6 }, () => isIn(fixed('ASSET_ID'), manyValues))), [], 'INVALID_CRITERION', ['values in all']],
  ['too deep', nested(13), [], 'INVALID_CRITERION', ['deeper than 12']],
  ['hostile depth does not overflow the stack', nested(200_000), [], 'INVALID_CRITERION', ['deeper than 12']],
  ['too many criteria', or(...Array.from({ length: 201 }, () => ({ type: 'MATCH_ALL' }))), [], 'INVALID_CRITERION', ['more than 200']],
  ['missing sorts', { type: 'MATCH_ALL' }, undefined, 'INVALID_SORT', ['sorts', 'required']],
  ['sorts not an array', { type: 'MATCH_ALL' }, { field: fixed('FILENAME') }, 'INVALID_SORT', ['sorts']],
  ['lower-case order', { type: 'MATCH_ALL' }, [{ field: fixed('FILENAME'), order: 'asc' }], 'INVALID_SORT', ['sorts[0].order']],
  ['unknown sort field', { type: 'MATCH_ALL' }, [{ field: fixed('DATE_LIVE') }, { field: fixed('SIZE') }], 'INVALID_SORT', ['sorts[1].field.fieldName', '"SIZE"']],
  ['unknown sort field id', { type: 'MATCH_ALL' }, [{ field: custom('nope') }], 'INVALID_SORT', ['sorts[0].field.fieldId']],
  ['COLLECTIONS wildcard', matches(fixed('COLLECTIONS'), 'c*'), [], 'INVALID_CRITERION', ['criterion.value', 'collection ids']],
  ['sort on COLLECTIONS', { type: 'MATCH_ALL' }, [{ field: fixed('COLLECTIONS') }], 'INVALID_SORT', ['sorts[0].field.fieldName', 'COLLECTIONS']],
  ['V1 sort name', { type: 'MATCH_ALL' }, [{ field: fixed('DATE_ADDED'), order: 'DESC' }], 'UNSUPPORTED_V1_NAME', ['sorts[0].field.fieldName', 'DATE_LIVE']],
  ['too many sorts', { type: 'MATCH_ALL' }, Array.from({ length: 11 }, () => ({ field: fixed('ASSET_ID') })), 'INVALID_SORT', ['at most 10']],
];

describe('compileAssetQuery: errors', () => {
  it.each(errorCases)('%s', (_name, criterion, sorts, code, fragments) => {
    const error = failure(criterion, sorts);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
  });
});

describe('compileAssetQuery: query plans', () => {
  const plan = (criterion: unknown): string => {
    const query = compileAssetQuery(searcher, criterion, [{ field: fixed('DATE_LAST_MODIFIED'), order: 'DESC' }]);
    const sql = `SELECT a.* FROM ${ASSETS_FROM} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT 10`;
    return db.prepare<[object], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(query.params).map((row) => row.detail).join('\n');
  };

  it('drives a folder search from the values index, not from every LIVE asset', () => {
    expect(plan(eq(custom(folders), logos))).toMatch(/SEARCH a USING INDEX sqlite_autoindex_assets_1 \(id=\?\)[\s\S]*asset_values_field_value_asset/);
    expect(plan(and(eq(fixed('KEYWORDS'), 'red'), matches(fixed('FILENAME'), 'l*')))).toContain('sqlite_autoindex_assets_1');
  });

  it('drives a collection search from the collection\'s own rows', () => {
    expect(plan(eq(fixed('COLLECTIONS'), c1))).toMatch(/SEARCH a USING INDEX sqlite_autoindex_assets_1 \(id=\?\)[\s\S]*SEARCH ca USING PRIMARY KEY \(collection_id=\?\)/);
  });

  it('drives a poll (folders, changed since T) from the date indexes, not from every asset in the folders', () => {
    const since = (fieldName: string) => matches(fixed(fieldName), '[2026-03-01T00:00:00.000Z TO *]');
    const poll = and(eq(custom(folders), brand, { includeSubfolders: true }), { type: 'OR', criteria: [since('DATE_LAST_MODIFIED'), since('DATE_LAST_ASSET_FILE_ADDED')] });
    const detail = plan(poll);
    expect(detail).toContain('MULTI-INDEX OR');
    expect(detail).toMatch(/SEARCH a USING INDEX assets_modified \(date_last_modified>\?\)[\s\S]*SEARCH a USING INDEX assets_file_added \(date_last_file_added>\?\)/);
    expect(detail).not.toContain('sqlite_autoindex_assets_1');
    // A bounded range is no poll: the folders still drive it.
    expect(plan(and(eq(custom(folders), brand, { includeSubfolders: true }), matches(fixed('DATE_LAST_MODIFIED'), '[2026-03-01 TO 2026-03-31]')))).toContain('sqlite_autoindex_assets_1');
  });

  it('serves an unselective search sorted by DATE_LAST_MODIFIED from the scope index without sorting', () => {
    const detail = plan({ type: 'MATCH_ALL' });
    expect(detail).toContain('assets_account_state_modified');
    expect(detail).not.toContain('TEMP B-TREE');
  });
});

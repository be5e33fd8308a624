import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { fieldsRepo } from '../fields/fields-repo.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { compileAssetQuery } from './asset-query.js';
import { assetSearchRunner } from './run-asset-search.js';
import { searchAccount } from './search-account.js';
import { fileNameIndex } from './file-name-index.js';
import { trigramPattern } from './text-prefilter.js';
import { wildcardToLike } from './wildcard-pattern.js';

describe('trigramPattern', () => {
  it('keeps a pattern with a run of three literal characters, without escapes', () => {
    expect(trigramPattern('%logo%')).toBe('%logo%');
    expect(trigramPattern(wildcardToLike('*100%*').pattern)).toBe('%100_%');
    expect(trigramPattern(wildcardToLike('*a_b*').pattern)).toBeUndefined();
    expect(trigramPattern(wildcardToLike('*ab\\\\c*').pattern)).toBe('%ab\\c%');
    expect(trigramPattern(wildcardToLike('*été*').pattern)).toBe('%été%');
  });

  it('gives up when no run is three characters long (the index would read every row)', () => {
    expect(trigramPattern('%lo%')).toBeUndefined();
    expect(trigramPattern('%ab%cd%')).toBeUndefined();
    expect(trigramPattern('%')).toBeUndefined();
  });
});

// Every match through the indexes must find exactly what LIKE on the rows finds, whatever was renamed,
// re-filed or deleted since the rows were written, and however far the file-name index has caught up
// (here: the first four files are in it, the rest in its tail, until a test catches up).
describe('wildcard matches on FILENAME and text fields through the trigram indexes', () => {
  const db = openDatabase(':memory:');
  const now = '2026-01-01T00:00:00.000Z';
  const account = accountsRepo(db).createAccount('a', 'A', now);
  const fields = fieldsRepo(db);
  const keywords = fields.create(account.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, role: 'KEYWORDS' }, now).id;
  const caption = fields.create(account.id, { name: 'Caption', hasFixedOptions: false, hierarchical: false, multiValue: false }, now).id;
  const colour = fields.create(account.id, { name: 'Colour', hasFixedOptions: true, hierarchical: false, multiValue: true }, now).id;
  const seed = assetSeeder(db);
  const names = ['logo.png', 'Logo_Final 100%.PNG', 'LOGO-old.jpg', 'catalogue.pdf', 'draft*.psd', 'Été.jpg', 'été-2.jpg', 'back\\slash.txt', 'lo.go'];
  names.forEach((filename, index) => seed.insert({ accountId: account.id, id: `a${index}`, filename, values: { [keywords]: [`key ${filename}`], [caption]: [`Caption of ${filename}`] } }));
  const nameIndex = fileNameIndex(db);
  nameIndex.catchUp(4);
  afterAll(() => db.close());
  const indexedThrough = (): number => db.prepare<[], number>(`SELECT indexed_through FROM text_index_progress WHERE name = 'file_names'`).pluck().get() ?? 0;
  /** FTS5's own check that the index holds exactly the content table's rows: true only with no tail. */
  const indexMatchesRows = (): void => void db.prepare(`INSERT INTO file_name_trigrams (file_name_trigrams) VALUES ('integrity-check')`).run();
  const allMatch = (): void => {
    for (const pattern of patterns) {
      expect([pattern, matches('FILENAME', pattern)]).toEqual([pattern, expected('filename', pattern)]);
      expect([pattern, matches('KEYWORDS', pattern)]).toEqual([pattern, expected('keyword', pattern)]);
      expect([pattern, matches({ fieldId: caption }, pattern)]).toEqual([pattern, expected('caption', pattern)]);
    }
  };

  const searcher = searchAccount(fields, { accountId: account.id, folders: null });
  const runner = assetSearchRunner(db);
  const matches = (fieldName: string | { fieldId: string }, value: string): string[] => {
    const field = typeof fieldName === 'string' ? { type: 'FIXED', fieldName } : { type: 'FIELD', ...fieldName };
    const query = compileAssetQuery(searcher, { type: 'FIELD_MATCHES', field, value }, [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }]);
    return runner.page(query, 0, 100).map((row) => row.id);
  };
  /** What LIKE on the current rows says, without any index. */
  const expected = (column: 'filename' | 'keyword' | 'caption', value: string): string[] => {
    const like = wildcardToLike(value).pattern;
    const sql =
      column === 'filename'
        ? `SELECT a.id FROM assets a JOIN asset_files f ON f.id = a.current_file_id WHERE f.filename LIKE ? ESCAPE '\\' ORDER BY a.id`
        : `SELECT DISTINCT a.id FROM assets a JOIN asset_values v ON v.asset_id = a.id WHERE v.field_id = ? AND v.value LIKE ? ESCAPE '\\' ORDER BY a.id`;
    const statement = db.prepare<unknown[], string>(sql).pluck();
    return column === 'filename' ? statement.all(like) : statement.all(column === 'keyword' ? keywords : caption, like);
  };
  const patterns = ['*logo*', '*LOGO*', 'logo*', '*100%*', '*_fin*', '*t\\**', '*été*', '*ÉTÉ*', '*k\\\\s*', '*lo*', '*a*e*', '*.jpg', 'nothing*'];

  it('uses the indexes for patterns with a literal run of three characters', () => {
    const query = compileAssetQuery(searcher, { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'FILENAME' }, value: '*logo*' }, []);
    expect(query.where).toContain('file_name_trigrams');
    const keyword = compileAssetQuery(searcher, { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'KEYWORDS' }, value: '*logo*' }, []);
    expect(keyword.where).toContain('value_trigrams');
    const short = compileAssetQuery(searcher, { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'FILENAME' }, value: '*lo*' }, []);
    expect(short.where).not.toContain('trigrams');
  });

  it('finds exactly what LIKE finds, on FILENAME, KEYWORDS and a text field', () => {
    for (const pattern of patterns) {
      expect([pattern, matches('FILENAME', pattern)]).toEqual([pattern, expected('filename', pattern)]);
      expect([pattern, matches('KEYWORDS', pattern)]).toEqual([pattern, expected('keyword', pattern)]);
      expect([pattern, matches({ fieldId: caption }, pattern)]).toEqual([pattern, expected('caption', pattern)]);
    }
    expect(matches('FILENAME', '*logo*')).toEqual(['a0', 'a1', 'a2']);
  });

  it('follows renames, new values, deleted values and deleted assets', () => {
    db.prepare("UPDATE asset_files SET filename = 'renamed.png' WHERE asset_id = 'a0'").run();
    db.prepare("UPDATE asset_files SET filename = 'my-logo.svg' WHERE asset_id = 'a3'").run();
    db.prepare("DELETE FROM asset_values WHERE asset_id = 'a1' AND field_id = ?").run(keywords);
    db.prepare("INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES ('a4', ?, 1, 'LOGOTYPE')").run(keywords);
    db.prepare("UPDATE asset_values SET value = 'plain' WHERE asset_id = 'a2' AND field_id = ?").run(caption);
    db.prepare("DELETE FROM assets WHERE id = 'a5'").run();
    for (const pattern of patterns) {
      expect([pattern, matches('FILENAME', pattern)]).toEqual([pattern, expected('filename', pattern)]);
      expect([pattern, matches('KEYWORDS', pattern)]).toEqual([pattern, expected('keyword', pattern)]);
      expect([pattern, matches({ fieldId: caption }, pattern)]).toEqual([pattern, expected('caption', pattern)]);
    }
    expect(matches('FILENAME', '*logo*')).toEqual(['a1', 'a2', 'a3']);
    expect(matches('KEYWORDS', '*logo*')).toEqual(['a0', 'a2', 'a4']);
  });

  it('finds the same once the file-name index has caught up, and then holds exactly the rows', () => {
    const tailBefore = db.prepare<[number], number>('SELECT count(*) FROM asset_files WHERE rowid > ?').pluck().get(indexedThrough());
    expect(tailBefore).toBeGreaterThan(0);
    nameIndex.catchUpAll();
    expect(db.prepare<[number], number>('SELECT count(*) FROM asset_files WHERE rowid > ?').pluck().get(indexedThrough())).toBe(0);
    indexMatchesRows();
    allMatch();
  });

  it('indexes at once a file whose rowid comes back at or below the mark, and renames and deletes on both sides of it', () => {
    nameIndex.catchUpAll();
    const last = db.prepare<[], { rowid: number; asset_id: string }>('SELECT rowid, asset_id FROM asset_files ORDER BY rowid DESC LIMIT 1').get();
    if (last === undefined) throw new Error('no files');
    db.prepare('DELETE FROM assets WHERE id = ?').run(last.asset_id);
    seed.insert({ accountId: account.id, id: 'reused', filename: 'reused-rowid-logo.png' });
    const reused = db.prepare<[], number>(`SELECT rowid FROM asset_files WHERE filename = 'reused-rowid-logo.png'`).pluck().get();
    expect(reused).toBe(last.rowid);
    expect(reused).toBeLessThanOrEqual(indexedThrough());
    indexMatchesRows();
    // Now a tail above the mark: renamed and deleted there, then caught up.
    seed.insert({ accountId: account.id, id: 't1', filename: 'tail-logo.png' });
    seed.insert({ accountId: account.id, id: 't2', filename: 'tail-two.png' });
    db.prepare(`UPDATE asset_files SET filename = 'tail-renamed-logo.png' WHERE asset_id = 't1'`).run();
    db.prepare(`DELETE FROM assets WHERE id = 't2'`).run();
    allMatch();
    expect(matches('FILENAME', '*tail*')).toEqual(['t1']);
    nameIndex.catchUpAll();
    indexMatchesRows();
    allMatch();
    expect(matches('FILENAME', '*tail*')).toEqual(['t1']);
  });

  it('indexes text-field values only, never option ids', () => {
    seed.insert({ accountId: account.id, id: 'c1', filename: 'x.png', values: { [colour]: ['option-id-logo'] } });
    const indexed = db.prepare<[], number>("SELECT count(*) FROM value_trigrams WHERE value LIKE '%option-id%'").pluck().get();
    expect(indexed).toBe(0);
  });

  it('keeps NOT two-valued: NOT a match is every other asset', () => {
    const all = compileAssetQuery(searcher, { type: 'MATCH_ALL' }, [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }]);
    const not = compileAssetQuery(searcher, { type: 'NOT', criterion: { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'FILENAME' }, value: '*logo*' } }, [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }]);
    const hits = new Set(matches('FILENAME', '*logo*'));
    expect(runner.page(not, 0, 100).map((row) => row.id)).toEqual(runner.page(all, 0, 100).map((row) => row.id).filter((id) => !hits.has(id)));
  });
});

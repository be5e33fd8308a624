import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, type Db } from '../db/open-database.js';
import { fieldsRepo, type FieldsRepo } from './fields-repo.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const FOLDERS = { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' } as const;

describe('fieldsRepo.foldersFieldId: read once per account, never stale', () => {
  let db: Db;
  let fields: FieldsRepo;
  const statements: string[] = [];
  beforeEach(() => {
    statements.length = 0;
    db = openDatabase(join(tempDir('fields-repo-'), 'service.db'), { onStatement: (sql) => statements.push(sql) });
    fields = fieldsRepo(db);
  });
  afterEach(() => {
    db.close();
  });
  const addAccount = (id: string): void => void db.prepare("INSERT INTO accounts (id, subdomain, name, date_created) VALUES (?, ?, 'A', 'now')").run(id, id);
  const fieldReads = (): number => statements.filter((sql) => /^SELECT .* FROM fields /.test(sql)).length;

  it('answers the Folders field id and reads it from the database once', () => {
    addAccount('acc');
    const created = fields.create('acc', FOLDERS, 'now');
    statements.length = 0;
    expect(fields.foldersFieldId('acc')).toBe(created.id);
    expect(fields.foldersFieldId('acc')).toBe(created.id);
    expect(fieldReads()).toBe(1);
  });

  it('answers undefined for an account without one, and finds it once it is created', () => {
    addAccount('acc');
    expect(fields.foldersFieldId('acc')).toBeUndefined();
    const created = fields.create('acc', FOLDERS, 'now');
    expect(fields.foldersFieldId('acc')).toBe(created.id);
  });

  it('never answers the field of a sign-up that rolled back, when the account id comes back', () => {
    const signUp = (): string =>
      db.transaction(() => {
        addAccount('acc');
        const id = fields.create('acc', FOLDERS, 'now').id;
        // Read (and remembered) inside the transaction that then rolls back.
        expect(fields.foldersFieldId('acc')).toBe(id);
        return id;
      })();
    const rolledBack = db.transaction(() => {
      const id = signUp();
      throw new RollBack(id);
    });
    expect(() => rolledBack()).toThrow(RollBack);
    const again = signUp();
    expect(fields.foldersFieldId('acc')).toBe(again);
    expect(db.prepare<[string], { id: string }>("SELECT id FROM fields WHERE account_id = ? AND role = 'FOLDERS'").get('acc')?.id).toBe(again);
  });
});

class RollBack extends Error {}

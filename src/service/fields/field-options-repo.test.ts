import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, type Db } from '../db/open-database.js';
import { fieldOptionsRepo, type FieldOptionsRepo, type FoundOptions } from './field-options-repo.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('fieldOptionsRepo.ensurePath with the options found in one transaction', () => {
  let db: Db;
  let options: FieldOptionsRepo;
  const statements: string[] = [];
  beforeEach(() => {
    statements.length = 0;
    db = openDatabase(join(tempDir('field-options-repo-'), 'service.db'), { onStatement: (sql) => statements.push(sql) });
    db.prepare("INSERT INTO accounts (id, subdomain, name, date_created) VALUES ('acc', 'acc', 'A', 'now')").run();
    db.prepare("INSERT INTO fields (id, account_id, name, has_fixed_options, hierarchical, multi_value, indestructable, role, date_created) VALUES ('folders', 'acc', 'Folders', 1, 1, 1, 1, 'FOLDERS', 'now')").run();
    options = fieldOptionsRepo(db);
  });
  afterEach(() => {
    db.close();
  });
  const lookups = (): number => statements.filter((sql) => sql.startsWith('SELECT * FROM field_options WHERE field_id')).length;
  const exists = (id: string): boolean => options.get('acc', id) !== undefined;

  it('looks a folder that was there up once per transaction', () => {
    const logos = db.transaction(() => options.ensurePath('acc', 'folders', ['Brand', 'Logos']))();
    statements.length = 0;
    const found: FoundOptions = new Map();
    db.transaction(() => {
      expect(options.ensurePath('acc', 'folders', ['Brand', 'Logos'], found)).toBe(logos);
      expect(options.ensurePath('acc', 'folders', ['Brand', 'Logos'], found)).toBe(logos);
    })();
    expect(lookups()).toBe(2);
  });

  it('never remembers a folder it created: a rolled-back item takes it along, and the next one makes it again', () => {
    const found: FoundOptions = new Map();
    db.transaction(() => {
      // An item that creates the folder, then fails: its savepoint rolls back.
      expect(() =>
        db.transaction(() => {
          options.ensurePath('acc', 'folders', ['New'], found);
          throw new Error('refused');
        })(),
      ).toThrow('refused');
      const made = db.transaction(() => options.ensurePath('acc', 'folders', ['New'], found))();
      expect(exists(made)).toBe(true);
      // Found by the next item (created by one that succeeded), then remembered.
      expect(options.ensurePath('acc', 'folders', ['New'], found)).toBe(made);
    })();
  });
});

/** Fields of an account's metadata schema, and their wire form. */
import { randomUUID } from 'node:crypto';
import type { Field } from '../../shared/api/resources.js';
import type { Db } from '../db/open-database.js';

export type BuiltInRole = 'FOLDERS' | 'KEYWORDS';

interface FieldRow {
  id: string;
  account_id: string;
  name: string;
  has_fixed_options: number;
  hierarchical: number;
  multi_value: number;
  indestructable: number;
  role: BuiltInRole | null;
}

export interface FieldRecord extends Field {
  accountId: string;
  role: BuiltInRole | null;
}

export interface NewField {
  name: string;
  hasFixedOptions: boolean;
  hierarchical: boolean;
  multiValue: boolean;
  indestructable?: boolean;
  role?: BuiltInRole;
}

const columns = 'id, account_id, name, has_fixed_options, hierarchical, multi_value, indestructable, role';

function toRecord(row: FieldRow): FieldRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    hasFixedOptions: row.has_fixed_options === 1,
    hierarchical: row.hierarchical === 1,
    multiValue: row.multi_value === 1,
    indestructable: row.indestructable === 1,
    role: row.role,
  };
}

/** The wire form: internal columns stripped. */
export function toField(record: FieldRecord): Field {
  const { accountId: _account, role: _role, ...field } = record;
  return field;
}

export function fieldsRepo(db: Db) {
  const list = db.prepare<[string], FieldRow>(`SELECT ${columns} FROM fields WHERE account_id = ? ORDER BY name COLLATE NOCASE, id`);
  const byId = db.prepare<[string, string], FieldRow>(`SELECT ${columns} FROM fields WHERE account_id = ? AND id = ?`);
  const byRole = db.prepare<[string, string], FieldRow>(`SELECT ${columns} FROM fields WHERE account_id = ? AND role = ?`);
  const byName = db.prepare<[string, string], FieldRow>(`SELECT ${columns} FROM fields WHERE account_id = ? AND name = ?`);
  const insert = db.prepare(
    `INSERT INTO fields (${columns}, date_created) VALUES (@id, @account_id, @name, @has_fixed_options, @hierarchical, @multi_value, @indestructable, @role, @date_created)`,
  );
  const update = db.prepare('UPDATE fields SET name = @name, multi_value = @multi_value WHERE account_id = @account_id AND id = @id');
  const remove = db.prepare('DELETE FROM fields WHERE account_id = ? AND id = ?');
  const removeValues = db.prepare('DELETE FROM asset_values WHERE field_id = ?');
  const removeOptions = db.prepare('DELETE FROM field_options WHERE field_id = ?');
  /**
   * The Folders field's id by account. It cannot change: a field's id never changes and the Folders
   * field is indestructable (it is created with its account and never deleted), so a committed entry
   * holds for good. An entry read inside a transaction that then rolls back (the account's sign-up)
   * names an account that rolled back with it; should that account id ever be created again, its new
   * Folders field goes through `create`, the one writer, which drops the entry first.
   */
  const foldersFieldIds = new Map<string, string>();

  return {
    list: (accountId: string) => list.all(accountId).map(toRecord),
    get(accountId: string, id: string): FieldRecord | undefined {
      const row = byId.get(accountId, id);
      return row === undefined ? undefined : toRecord(row);
    },
    byRole(accountId: string, role: BuiltInRole): FieldRecord | undefined {
      const row = byRole.get(accountId, role);
      return row === undefined ? undefined : toRecord(row);
    },
    /** The id of the account's Folders field (undefined: the account has none), read once per account. */
    foldersFieldId(accountId: string): string | undefined {
      const known = foldersFieldIds.get(accountId);
      if (known !== undefined) return known;
      const id = byRole.get(accountId, 'FOLDERS')?.id;
      if (id !== undefined) foldersFieldIds.set(accountId, id);
      return id;
    },
    nameTaken: (accountId: string, name: string) => byName.get(accountId, name) !== undefined,
    create(accountId: string, field: NewField, now: string): FieldRecord {
      if (field.role === 'FOLDERS') foldersFieldIds.delete(accountId);
      const row: FieldRow & { date_created: string } = {
        id: randomUUID(),
        account_id: accountId,
        name: field.name,
        has_fixed_options: field.hasFixedOptions ? 1 : 0,
        // Options only form a tree on an option field.
        hierarchical: field.hasFixedOptions && field.hierarchical ? 1 : 0,
        multi_value: field.multiValue ? 1 : 0,
        indestructable: field.indestructable === true ? 1 : 0,
        role: field.role ?? null,
        date_created: now,
      };
      insert.run(row);
      return toRecord(row);
    },
    update(record: FieldRecord): void {
      update.run({ id: record.id, account_id: record.accountId, name: record.name, multi_value: record.multiValue ? 1 : 0 });
    },
    /** Deletes the field with its options and every asset's values for it. */
    remove: db.transaction((accountId: string, id: string) => {
      removeValues.run(id);
      db.prepare('UPDATE field_options SET parent_id = NULL WHERE field_id = ?').run(id);
      removeOptions.run(id);
      remove.run(accountId, id);
    }),
  };
}

export type FieldsRepo = ReturnType<typeof fieldsRepo>;

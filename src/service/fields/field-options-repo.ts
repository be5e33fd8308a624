/**
 * Options of option fields (the Folders field's options are the folders). Rows form a tree per field
 * through `parent_id`; siblings have distinct values (a unique index) and 0-based positions.
 * Callers run multi-step changes inside `db.transaction`; this module never reaches outside the DB.
 */
import type { FieldOption } from '../../shared/api/resources.js';
import type { Db } from '../db/open-database.js';
import { cryptoIds, type IdSource } from '../db/time-ordered-id.js';

export interface OptionRow {
  id: string;
  account_id: string;
  field_id: string;
  parent_id: string | null;
  value: string;
  position: number;
}

/** Why an option cannot be moved or renamed, for the routes to turn into a 409. */
export type OptionChangeProblem = 'CYCLE' | 'SIBLING_VALUE_TAKEN';

/**
 * Options `ensurePath` found by value, for the rest of one transaction in which no option is renamed,
 * moved or deleted (a batch job's chunk of new assets, which only adds options). Drop it when the
 * transaction ends: its rollback can take options created in it along.
 */
export type FoundOptions = Map<string, string>;

/** The deepest parent chain the service renders (a folder tree deeper than this is refused on creation). */
export const MAX_OPTION_DEPTH = 64;

export function fieldOptionsRepo(db: Db, ids: IdSource = cryptoIds()) {
  const byId = db.prepare<[string, string], OptionRow>('SELECT * FROM field_options WHERE account_id = ? AND id = ?');
  const child = db.prepare<[string, string | null, string], OptionRow>(
    "SELECT * FROM field_options WHERE field_id = ? AND ifnull(parent_id, '') = ifnull(?, '') AND value = ?",
  );
  const childCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM field_options WHERE parent_id = ?');
  const nextPosition = db.prepare<[string, string | null], { p: number }>(
    "SELECT ifnull(max(position) + 1, 0) AS p FROM field_options WHERE field_id = ? AND ifnull(parent_id, '') = ifnull(?, '')",
  );
  const insert = db.prepare(
    'INSERT INTO field_options (id, account_id, field_id, parent_id, value, position) VALUES (@id, @account_id, @field_id, @parent_id, @value, @position)',
  );
  const update = db.prepare('UPDATE field_options SET parent_id = @parent_id, value = @value, position = @position WHERE id = @id');
  const remove = db.prepare('DELETE FROM field_options WHERE id = ?');
  const siblings = db.prepare<[string, string | null], { id: string; position: number }>(
    "SELECT id, position FROM field_options WHERE field_id = ? AND ifnull(parent_id, '') = ifnull(?, '') ORDER BY position, id",
  );
  const setPosition = db.prepare('UPDATE field_options SET position = ? WHERE id = ?');
  const usedBy = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM asset_values WHERE field_id = ? AND value = ?');

  const get = (accountId: string, id: string): OptionRow | undefined => byId.get(accountId, id);

  /** The ids from `id` up to its top-level ancestor, `id` first. */
  const ancestry = (accountId: string, id: string): string[] => {
    const chain: string[] = [];
    for (let row = get(accountId, id); row !== undefined && chain.length <= MAX_OPTION_DEPTH; row = row.parent_id === null ? undefined : get(accountId, row.parent_id)) {
      chain.push(row.id);
    }
    return chain;
  };

  /**
   * Keeps sibling positions 0…n-1: puts `id` at index `at` among its siblings (the end when omitted)
   * and renumbers the others; with no `id`, only closes gaps. Returns the position `id` ended at.
   */
  const place = (fieldId: string, parentId: string | null, id?: string, at?: number): number => {
    const order = siblings.all(fieldId, parentId).filter((sibling) => sibling.id !== id);
    let placed = -1;
    const ids = order.map((sibling) => sibling.id);
    if (id !== undefined) {
      placed = Math.min(Math.max(0, at ?? ids.length), ids.length);
      ids.splice(placed, 0, id);
    }
    const before = new Map(order.map((sibling) => [sibling.id, sibling.position]));
    ids.forEach((siblingId, position) => {
      if (before.get(siblingId) !== position) setPosition.run(position, siblingId);
    });
    return placed;
  };

  const create = (row: Omit<OptionRow, 'id' | 'position'> & { position?: number | undefined }): OptionRow => {
    const full: OptionRow = { ...row, id: ids.uuid(), position: nextPosition.get(row.field_id, row.parent_id)?.p ?? 0 };
    insert.run(full);
    if (row.position !== undefined) full.position = place(row.field_id, row.parent_id, full.id, row.position);
    return full;
  };

  /** The wire form with the full parent chain (API.md §3). */
  const render = (row: OptionRow): FieldOption => {
    const parent = row.parent_id === null ? undefined : get(row.account_id, row.parent_id);
    const children = childCount.get(row.id)?.n ?? 0;
    return {
      id: row.id,
      fieldId: row.field_id,
      value: row.value,
      position: row.position,
      leaf: children === 0,
      numberOfChildren: children,
      parent: parent === undefined ? null : render(parent),
    };
  };

  return {
    get,
    ancestry,
    /** The sibling under `parentId` with exactly this value, if any. */
    childByValue: (fieldId: string, parentId: string | null, value: string) => child.get(fieldId, parentId, value),
    numberOfChildren: (id: string) => childCount.get(id)?.n ?? 0,
    create,
    /**
     * The option at the end of a folder chain (`['Brand', 'Logos']`), creating the missing ones on the
     * way. Looks each level up first, so a retried request never creates a duplicate. Call inside a transaction.
     * `found`: the options looked up so far in this same transaction (see FoundOptions), asked first.
     */
    ensurePath(accountId: string, fieldId: string, values: readonly string[], found?: FoundOptions): string {
      let parentId: string | null = null;
      for (const value of values) {
        const key: string = JSON.stringify([fieldId, parentId, value]);
        let id: string | undefined = found?.get(key);
        if (id === undefined) {
          const existing: OptionRow | undefined = child.get(fieldId, parentId, value);
          // Only options that were there before this call are remembered: one it creates goes if its
          // caller's savepoint rolls back.
          if (existing !== undefined) found?.set(key, existing.id);
          id = existing?.id ?? create({ account_id: accountId, field_id: fieldId, parent_id: parentId, value }).id;
        }
        parentId = id;
      }
      if (parentId === null) throw new Error('ensurePath needs at least one value');
      return parentId;
    },
    /** Applies a rename/move/reorder, or says why it cannot be done. Call inside a transaction. */
    change(row: OptionRow, next: { value: string; parentId: string | null; position?: number | undefined }): OptionChangeProblem | OptionRow {
      if (next.parentId !== null && ancestry(row.account_id, next.parentId).includes(row.id)) return 'CYCLE';
      const clash = child.get(row.field_id, next.parentId, next.value);
      if (clash !== undefined && clash.id !== row.id) return 'SIBLING_VALUE_TAKEN';
      const moved = next.parentId !== row.parent_id;
      const updated: OptionRow = { ...row, value: next.value, parent_id: next.parentId };
      update.run(updated);
      if (moved) place(row.field_id, row.parent_id);
      if (moved || next.position !== undefined) updated.position = place(row.field_id, next.parentId, row.id, next.position ?? (moved ? undefined : row.position));
      return updated;
    },
    /** Deletes an option that no asset and no child uses. Call inside a transaction. */
    remove(row: OptionRow): 'IN_USE' | undefined {
      if ((childCount.get(row.id)?.n ?? 0) > 0 || (usedBy.get(row.field_id, row.id)?.n ?? 0) > 0) return 'IN_USE';
      remove.run(row.id);
      place(row.field_id, row.parent_id);
      return undefined;
    },
    render,
  };
}

export type FieldOptionsRepo = ReturnType<typeof fieldOptionsRepo>;

/**
 * Preset transformations and their groups (SERVICE-SPEC.md §2.7). Presets with account_id NULL are the
 * installation's, offered to every account (seeded by migration 0007; `asset-sync preset` manages
 * them); the wire form names the caller's account. Candidates are stored as validated JSON.
 */
import { z } from 'zod';
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { candidateList, type CandidateTransformation } from './transformation-schema.js';

export interface PresetRow {
  id: string;
  account_id: string | null;
  name: string;
  group_id: string | null;
  position: number;
  candidates: string;
  date_created: string;
}

export interface PresetGroupRow {
  id: string;
  group_type_id: string;
  group_type_name: string;
  name: string;
  icon_url: string | null;
  position: number;
}

/** A preset as the API shows it. */
export interface PresetTransformation {
  id: string;
  accountId: string;
  name: string;
  groupId: string | null;
  /** 0-based, among the presets of its group (or the ungrouped ones). */
  position: number;
  candidateTransformations: CandidateTransformation[];
}

export function candidatesOf(row: PresetRow): CandidateTransformation[] {
  // Written only through candidateList (the migration's JSON included): a mismatch is a bug.
  return candidateList.parse(JSON.parse(row.candidates) as unknown);
}

export function toPreset(row: PresetRow, accountId: string): PresetTransformation {
  return { id: row.id, accountId, name: row.name, groupId: row.group_id, position: row.position, candidateTransformations: candidatesOf(row) };
}

export function presetsRepo(db: Db) {
  const visible = db.prepare<[string], PresetRow>(
    `SELECT p.* FROM preset_transformations p LEFT JOIN preset_groups g ON g.id = p.group_id
     WHERE p.account_id IS NULL OR p.account_id = ? ORDER BY g.position IS NULL, g.position, p.position, p.name`,
  );
  const byId = db.prepare<[string, string], PresetRow>('SELECT * FROM preset_transformations WHERE id = ? AND (account_id IS NULL OR account_id = ?)');
  const byName = db.prepare<[string, string], PresetRow>(
    'SELECT * FROM preset_transformations WHERE name = ? COLLATE NOCASE AND (account_id IS NULL OR account_id = ?) ORDER BY account_id IS NULL LIMIT 1',
  );
  const groups = db.prepare<[], PresetGroupRow>(
    `SELECT g.*, t.name AS group_type_name FROM preset_groups g JOIN preset_group_types t ON t.id = g.group_type_id ORDER BY t.position, g.position`,
  );
  const groupByName = db.prepare<[string], PresetGroupRow>(
    'SELECT g.*, t.name AS group_type_name FROM preset_groups g JOIN preset_group_types t ON t.id = g.group_type_id WHERE g.name = ? COLLATE NOCASE ORDER BY t.position LIMIT 1',
  );
  const nextPosition = db.prepare<[string | null], { n: number }>('SELECT coalesce(max(position) + 1, 0) AS n FROM preset_transformations WHERE group_id IS ?');
  const insert = db.prepare(
    `INSERT INTO preset_transformations (id, account_id, name, group_id, position, candidates, date_created)
     VALUES (@id, @account_id, @name, @group_id, @position, @candidates, @date_created)`,
  );
  const remove = db.prepare('DELETE FROM preset_transformations WHERE id = ?');
  const renumber = db.prepare(
    `UPDATE preset_transformations SET position = position - 1 WHERE group_id IS ? AND position > ?`,
  );

  return {
    /** The presets an account sees, in group order, then position. */
    visible: (accountId: string) => visible.all(accountId),
    get: (accountId: string, id: string) => byId.get(id, accountId),
    byName: (accountId: string, name: string) => byName.get(name, accountId),
    groups: () => groups.all(),
    groupByName: (name: string) => groupByName.get(name),
    /** Adds an installation-wide preset at the end of its group. */
    add(input: { name: string; groupId: string | null; candidates: CandidateTransformation[]; now: string }): PresetRow {
      return db.transaction(() => {
        const row: PresetRow = {
          id: timeOrderedUuid(),
          account_id: null,
          name: input.name,
          group_id: input.groupId,
          position: nextPosition.get(input.groupId)?.n ?? 0,
          candidates: JSON.stringify(z.array(z.unknown()).parse(input.candidates)),
          date_created: input.now,
        };
        insert.run(row);
        return row;
      })();
    },
    remove(row: PresetRow): void {
      db.transaction(() => {
        remove.run(row.id);
        renumber.run(row.group_id, row.position);
      })();
    },
  };
}

export type PresetsRepo = ReturnType<typeof presetsRepo>;

/**
 * The auditor's view of the service: every asset of the account as the harness's checks need it, read
 * straight from the in-process service's store, not through its API. The checks run after every step
 * (no resurrection) and after the settle phase; through the API they cost a search, a folder lookup per
 * option and a version listing per asset: 42 of a seed's 125 service calls. The engine never sees this
 * view: its calls still go through fastify (sim-api.ts). What is read is the store itself, the truth
 * the API renders: an asset the API failed to show would still count here. The colleague finds the
 * folders it changes here too (the Folders field, an option's children), as the web app knows them.
 */
import type { Db } from '../src/service/db/open-database.js';
import type { RemoteAsset } from './remote-view.js';

interface AssetRow {
  id: string;
  state: string;
  filename: string | null;
  checksum: string | null;
}

interface OptionRow {
  id: string;
  parent_id: string | null;
  value: string;
}

/** What the checks read of the store: every asset of the account, binned ones too. */
export interface StoreView {
  /** Every asset by id; `versions: false` leaves each asset's versions out (a lookup by path needs none). */
  assets(options?: { versions?: boolean }): RemoteAsset[];
  /** The current content (MD5) of every live asset. */
  liveChecksums(): string[];
  /** The id of the account's Folders field. */
  foldersFieldId(): string;
  /** The folders directly below a folder option (null: the top level), in the service's order. */
  folderChildren(parentId: string | null): { id: string; value: string }[];
}

export function storeView(db: Db, subdomain: string): StoreView {
  const account = db.prepare<[string], { id: string }>('SELECT id FROM accounts WHERE subdomain = ?');
  const foldersField = db.prepare<[string], { id: string }>("SELECT id FROM fields WHERE account_id = ? AND role = 'FOLDERS'");
  const assetRows = db.prepare<[string], AssetRow>(
    'SELECT a.id, a.state, f.filename, f.checksum FROM assets a LEFT JOIN asset_files f ON f.id = a.current_file_id WHERE a.account_id = ? ORDER BY a.id',
  );
  const liveRows = db.prepare<[string], { checksum: string }>(
    "SELECT f.checksum FROM assets a JOIN asset_files f ON f.id = a.current_file_id WHERE a.account_id = ? AND a.state IN ('STAGED', 'PENDING_APPROVAL', 'LIVE') ORDER BY a.id",
  );
  const folderValues = db.prepare<[string], { asset_id: string; value: string }>('SELECT asset_id, value FROM asset_values WHERE field_id = ? ORDER BY asset_id, ord');
  const options = db.prepare<[string], OptionRow>('SELECT id, parent_id, value FROM field_options WHERE field_id = ?');
  const children = db.prepare<[string, string | null], { id: string; value: string }>(
    "SELECT id, value FROM field_options WHERE field_id = ? AND ifnull(parent_id, '') = ifnull(?, '') ORDER BY position, id",
  );
  const versions = db.prepare<[string], { asset_id: string; checksum: string }>('SELECT asset_id, checksum FROM asset_files WHERE account_id = ? ORDER BY asset_id, rowid');

  const accountId = (): string => {
    const row = account.get(subdomain);
    if (row === undefined) throw new Error(`the store has no account "${subdomain}"`);
    return row.id;
  };

  return {
    assets(wanted = {}) {
      const id = accountId();
      const fieldId = foldersField.get(id)?.id;
      const byOption = new Map((fieldId === undefined ? [] : options.all(fieldId)).map((option) => [option.id, option]));
      const paths = new Map<string, string>();
      const folderPath = (optionId: string): string => {
        const known = paths.get(optionId);
        if (known !== undefined) return known;
        const segments: string[] = [];
        // A cycle cannot be stored (a move under its own descendant is refused); the bound keeps a broken store from hanging the harness.
        for (let option = byOption.get(optionId); option !== undefined && segments.length <= byOption.size; option = option.parent_id === null ? undefined : byOption.get(option.parent_id)) segments.unshift(option.value);
        const path = segments.join('/');
        paths.set(optionId, path);
        return path;
      };
      const folders = group(fieldId === undefined ? [] : folderValues.all(fieldId), (row) => row.value);
      const files = wanted.versions === false ? new Map<string, string[]>() : group(versions.all(id), (row) => row.checksum);
      return assetRows.all(id).map((row) => {
        const name = row.filename ?? '(no file)';
        const placed = folders.get(row.id) ?? [];
        return {
          id: row.id,
          paths: (placed.length === 0 ? [name] : placed.map((optionId) => `${folderPath(optionId)}/${name}`)).sort(),
          state: row.state,
          checksum: row.checksum ?? undefined,
          versions: files.get(row.id) ?? [],
        };
      });
    },
    liveChecksums() {
      return liveRows.all(accountId()).map((row) => row.checksum);
    },
    foldersFieldId() {
      const fieldId = foldersField.get(accountId())?.id;
      if (fieldId === undefined) throw new Error(`the account "${subdomain}" has no Folders field`);
      return fieldId;
    },
    folderChildren(parentId) {
      return children.all(this.foldersFieldId(), parentId);
    },
  };
}

/**
 * Waits one turn of the event loop, as the API call a read replaces did (a request with a body reaches
 * the service on a later turn: direct-request.ts). A client that follows the change feed talks to the
 * service meanwhile (feed-follow.ts, fastify.inject), turn by turn: without the turn its connections
 * would land elsewhere among the harness's steps, and the seeds' traces and faults would move.
 */
export function aTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Rows by their asset, each mapped to what is kept of it, in row order. */
function group<R extends { asset_id: string }>(rows: readonly R[], value: (row: R) => string): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) {
    const list = grouped.get(row.asset_id);
    if (list === undefined) grouped.set(row.asset_id, [value(row)]);
    else list.push(value(row));
  }
  return grouped;
}

/**
 * Assets, their metadata values and their files, read and written as rows and rendered in wire form.
 * Callers run multi-step changes inside `db.transaction`; this module never reaches outside the DB.
 */
import type { Asset, AssetFile, FileType, LifecycleState } from '../../shared/api/resources.js';
import type { Db } from '../db/open-database.js';
import { cryptoIds, type IdSource } from '../db/time-ordered-id.js';
import { scopePredicate, type ScopedAccount } from '../groups/folder-scope.js';

export interface AssetRow {
  id: string;
  account_id: string;
  current_file_id: string | null;
  state: LifecycleState;
  state_before_bin: LifecycleState | null;
  date_staged: string | null;
  date_pending_approval: string | null;
  date_live: string | null;
  staged_by: string | null;
  date_created: string;
  date_last_modified: string;
  date_last_file_added: string | null;
}

export interface FileRow {
  id: string;
  account_id: string;
  asset_id: string;
  filename: string;
  size: number;
  checksum: string;
  sha256: string;
  media_type: string;
  media_subtype: string;
  file_type: FileType;
  width: number | null;
  height: number | null;
  date_added: string;
  added_by: string | null;
}

/** assets' columns, as AssetTuple holds them (pages of search results are read as arrays: run-asset-search.ts). */
export const ASSET_COLUMNS = [
  'id',
  'account_id',
  'current_file_id',
  'state',
  'state_before_bin',
  'date_staged',
  'date_pending_approval',
  'date_live',
  'staged_by',
  'date_created',
  'date_last_modified',
  'date_last_file_added',
] as const satisfies readonly (keyof AssetRow)[];

/** An AssetRow's values in ASSET_COLUMNS' order (a row read with more columns after them is made into the same row). */
export type AssetTuple = [string, string, string | null, LifecycleState, LifecycleState | null, string | null, string | null, string | null, string | null, string, string, string | null];

export function assetFromTuple([id, account_id, current_file_id, state, state_before_bin, date_staged, date_pending_approval, date_live, staged_by, date_created, date_last_modified, date_last_file_added]: readonly [...AssetTuple, ...unknown[]]): AssetRow {
  return { id, account_id, current_file_id, state, state_before_bin, date_staged, date_pending_approval, date_live, staged_by, date_created, date_last_modified, date_last_file_added };
}

/** asset_files' columns, as FileTuple holds them (a page's files are read as JSON arrays: see renderAll). */
export const FILE_COLUMNS = [
  'id',
  'account_id',
  'asset_id',
  'filename',
  'size',
  'checksum',
  'sha256',
  'media_type',
  'media_subtype',
  'file_type',
  'width',
  'height',
  'date_added',
  'added_by',
] as const satisfies readonly (keyof FileRow)[];

/** A FileRow's values in FILE_COLUMNS' order. */
export type FileTuple = [string, string, string, string, number, string, string, string, string, FileType, number | null, number | null, string, string | null];

export function fileFromTuple([id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by]: FileTuple): FileRow {
  return { id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by };
}

/** What an AssetFile says of its preview (render-asset.ts decides it). */
export type PreviewFacts = Pick<AssetFile, 'previewUrl' | 'previewState' | 'previewError'>;

export function toAssetFile(row: FileRow, preview: PreviewFacts = { previewUrl: null }): AssetFile {
  return {
    id: row.id,
    assetId: row.asset_id,
    filename: row.filename,
    size: row.size,
    checksum: row.checksum,
    sha256: row.sha256,
    mediaType: { type: row.media_type, subType: row.media_subtype },
    fileType: row.file_type,
    dimensions: row.width !== null && row.height !== null ? { width: row.width, height: row.height } : null,
    dateAdded: row.date_added,
    addedBy: row.added_by,
    ...preview,
  };
}

export function assetsRepo(db: Db, ids: IdSource = cryptoIds()) {
  // Every single-asset read goes through these two: a folder-limited caller cannot reach past their folders.
  const byId = db.prepare<[string, string], AssetRow>('SELECT * FROM assets WHERE account_id = ? AND id = ?');
  const byIdScoped = db.prepare<[{ account: string; id: string; field: string; ids: string }], AssetRow>(
    `SELECT a.* FROM assets a WHERE a.account_id = @account AND a.id = @id AND ${scopePredicate('a', '@field', '@ids')}`,
  );
  // The asset with its values, in one read: [field id, value] pairs in the order `values` answers them.
  const withValuesSql = (limit: string) =>
    `SELECT a.*, (SELECT json_group_array(json_array(v.field_id, v.value) ORDER BY v.field_id, v.ord) FROM asset_values v WHERE v.asset_id = a.id) AS value_pairs
       FROM assets a WHERE a.account_id = @account AND a.id = @id${limit}`;
  const withValues = db.prepare<[{ account: string; id: string }], AssetRow & { value_pairs: string }>(withValuesSql(''));
  const withValuesScoped = db.prepare<[{ account: string; id: string; field: string; ids: string }], AssetRow & { value_pairs: string }>(
    withValuesSql(` AND ${scopePredicate('a', '@field', '@ids')}`),
  );
  const insert = db.prepare(
    `INSERT INTO assets (id, account_id, current_file_id, state, date_staged, staged_by, date_created, date_last_modified)
     VALUES (?, ?, NULL, 'STAGED', ?, ?, ?, ?)`,
  );
  const valuesOf = db.prepare<[string], { field_id: string; value: string }>('SELECT field_id, value FROM asset_values WHERE asset_id = ? ORDER BY field_id, ord');
  const deleteValues = db.prepare('DELETE FROM asset_values WHERE asset_id = ? AND field_id = ?');
  const insertValue = db.prepare('INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES (?, ?, ?, ?)');
  const touch = db.prepare('UPDATE assets SET date_last_modified = ? WHERE id = ?');
  const fileById = db.prepare<[string, string], FileRow>('SELECT * FROM asset_files WHERE account_id = ? AND id = ?');
  const fileByIdScoped = db.prepare<[{ account: string; id: string; field: string; ids: string }], FileRow>(
    `SELECT f.* FROM asset_files f JOIN assets a ON a.id = f.asset_id
      WHERE f.account_id = @account AND f.id = @id AND ${scopePredicate('a', '@field', '@ids')}`,
  );
  // An asset's file (the named one, else its current one) with the asset, in one statement: f.id is null
  // when the asset has no such file.
  const assetFileSql = (limit: string) =>
    `SELECT a.current_file_id AS asset_current_file_id, f.* FROM assets a
       LEFT JOIN asset_files f ON f.id = coalesce(@file, a.current_file_id) AND f.asset_id = a.id
      WHERE a.account_id = @account AND a.id = @id${limit}`;
  type AssetFileRow = { asset_current_file_id: string | null } & (FileRow | { [K in keyof FileRow]: null });
  const assetFile = db.prepare<[{ account: string; id: string; file: string | null }], AssetFileRow>(assetFileSql(''));
  const assetFileScoped = db.prepare<[{ account: string; id: string; file: string | null; field: string; ids: string }], AssetFileRow>(
    assetFileSql(` AND ${scopePredicate('a', '@field', '@ids')}`),
  );
  const scoped = (who: ScopedAccount, id: string) =>
    who.folders === null ? undefined : { account: who.accountId, id, field: who.folders.foldersFieldId, ids: JSON.stringify(who.folders.folderIds) };
  const filesOf = db.prepare<[string], FileRow>('SELECT * FROM asset_files WHERE asset_id = ? ORDER BY date_added DESC, rowid DESC');
  const insertFile = db.prepare(
    `INSERT INTO asset_files (id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by)
     VALUES (@id, @account_id, @asset_id, @filename, @size, @checksum, @sha256, @media_type, @media_subtype, @file_type, @width, @height, @date_added, @added_by)`,
  );
  const replaceFile = db.prepare(
    `UPDATE asset_files SET filename = @filename, size = @size, checksum = @checksum, sha256 = @sha256, media_type = @media_type,
       media_subtype = @media_subtype, file_type = @file_type, width = @width, height = @height, date_added = @date_added, added_by = @added_by
     WHERE id = @id`,
  );
  // RETURNING: the caller renders the asset it just changed without reading it back.
  const setCurrent = db.prepare<[string, string, string, string, string, string], AssetRow>(
    `UPDATE assets SET current_file_id = ?, date_last_modified = ?, date_last_file_added = ?,
       date_staged = coalesce(date_staged, ?), staged_by = coalesce(staged_by, ?) WHERE id = ? RETURNING *`,
  );
  const setLifecycle = db.prepare(
    `UPDATE assets SET state = @state, state_before_bin = @state_before_bin, date_pending_approval = @date_pending_approval,
       date_live = @date_live, date_last_modified = @now WHERE id = @id`,
  );
  const renameFile = db.prepare('UPDATE asset_files SET filename = ? WHERE id = ?');
  const deleteFile = db.prepare('DELETE FROM asset_files WHERE id = ?');
  const deleteAsset = db.prepare('DELETE FROM assets WHERE id = ?');
  const blobUsers = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM asset_files WHERE sha256 = ?');

  // A page of assets' values and current files, two reads for the page (not two per asset), each answered
  // as one JSON text: better-sqlite3 builds an object per row, a property at a time, and for a page of
  // 1,000 assets (3,000 values, 1,000 files of 14 columns) that costs more than the lookups; one
  // JSON.parse of the page is cheaper. Values come as [the asset's place in the page, field, value].
  const pageValues = db
    .prepare<[string], string>(
      `SELECT json_group_array(json_array(r.key, v.field_id, v.value) ORDER BY r.key, v.field_id, v.ord) AS page
         FROM json_each(?) r JOIN asset_values v ON v.asset_id = r.value`,
    )
    .pluck();
  const pageFiles = db
    .prepare<[string], string>(`SELECT json_group_array(json_array(${FILE_COLUMNS.map((column) => `f.${column}`).join(', ')})) AS page FROM json_each(?) r JOIN asset_files f ON f.id = r.value`)
    .pluck();

  const toAsset = (row: AssetRow, values: Record<string, string[]>, current: FileRow | undefined, preview: (file: FileRow) => PreviewFacts): Asset => ({
    id: row.id,
    accountId: row.account_id,
    metadata: { values },
    currentAssetFile: current === undefined ? null : toAssetFile(current, preview(current)),
    lifecycleStatus: {
      state: row.state,
      dateStaged: row.date_staged,
      datePendingApproval: row.date_pending_approval,
      dateLive: row.date_live,
      stagedBy: row.staged_by,
    },
    dateLastModified: row.date_last_modified,
  });

  const values = (assetId: string): Record<string, string[]> => {
    const result: Record<string, string[]> = {};
    for (const { field_id, value } of valuesOf.all(assetId)) (result[field_id] ??= []).push(value);
    return result;
  };

  return {
    /** The asset, when it exists and the caller reaches it (account and folder limit). */
    get(who: ScopedAccount, id: string): AssetRow | undefined {
      const limited = scoped(who, id);
      return limited === undefined ? byId.get(who.accountId, id) : byIdScoped.get(limited);
    },
    values,
    /** `get` and `values` in one read. */
    getWithValues(who: ScopedAccount, id: string): { row: AssetRow; values: Record<string, string[]> } | undefined {
      const limited = scoped(who, id);
      const found = limited === undefined ? withValues.get({ account: who.accountId, id }) : withValuesScoped.get(limited);
      if (found === undefined) return undefined;
      const { value_pairs: pairs, ...row } = found;
      const values: Record<string, string[]> = {};
      for (const [fieldId, value] of JSON.parse(pairs) as [string, string][]) (values[fieldId] ??= []).push(value);
      return { row, values };
    },
    create(accountId: string, userId: string, now: string): AssetRow {
      const id = ids.uuid();
      insert.run(id, accountId, now, userId, now, now);
      // The row as inserted (no need to read it back).
      return {
        id,
        account_id: accountId,
        current_file_id: null,
        state: 'STAGED',
        state_before_bin: null,
        date_staged: now,
        date_pending_approval: null,
        date_live: null,
        staged_by: userId,
        date_created: now,
        date_last_modified: now,
        date_last_file_added: null,
      };
    },
    /** Replaces the values of the listed fields; others are kept. */
    setValues(assetId: string, fieldId: string, list: readonly string[]): void {
      deleteValues.run(assetId, fieldId);
      list.forEach((value, ord) => insertValue.run(assetId, fieldId, ord, value));
    },
    /** Adds values of a field the asset has none of yet (it was just created): nothing to replace. */
    addValues(assetId: string, fieldId: string, list: readonly string[]): void {
      list.forEach((value, ord) => insertValue.run(assetId, fieldId, ord, value));
    },
    touch: (assetId: string, now: string) => void touch.run(now, assetId),
    /** The asset file, when it exists and the caller reaches its asset. */
    file(who: ScopedAccount, id: string): FileRow | undefined {
      const limited = scoped(who, id);
      return limited === undefined ? fileById.get(who.accountId, id) : fileByIdScoped.get(limited);
    },
    /**
     * An asset's file as `file(who, fileId ?? current)` would find it, with `get(who, assetId)`'s check
     * of the asset, in one read: `asset` false when the caller does not reach the asset; `fileId` the
     * file looked for (null: none named and no current file); `file` undefined when it is not one of
     * the asset's files.
     */
    fileOfAsset(who: ScopedAccount, assetId: string, fileId: string | null): { asset: false } | { asset: true; fileId: string | null; file: FileRow | undefined } {
      const limited = scoped(who, assetId);
      const row = limited === undefined ? assetFile.get({ account: who.accountId, id: assetId, file: fileId }) : assetFileScoped.get({ ...limited, file: fileId });
      if (row === undefined) return { asset: false };
      const { asset_current_file_id: current, ...file } = row;
      return { asset: true, fileId: fileId ?? current, file: file.id === null ? undefined : file };
    },
    files: (assetId: string) => filesOf.all(assetId),
    /**
     * Adds a file version (or replaces one's bytes in place) and makes it current. Answers the asset
     * row as changed (undefined when the asset does not exist), and the blob hash of the replaced
     * bytes when no file uses it any more.
     */
    putFile(row: FileRow, replace: boolean, userId: string, now: string): { asset: AssetRow | undefined; freed: string | undefined } {
      const previous = replace ? fileById.get(row.account_id, row.id)?.sha256 : undefined;
      if (replace) replaceFile.run(row);
      else insertFile.run(row);
      const asset = setCurrent.get(row.id, now, row.date_added, now, userId, row.asset_id);
      return { asset, freed: previous !== undefined && (blobUsers.get(previous)?.n ?? 0) === 0 ? previous : undefined };
    },
    renameFile: (fileId: string, filename: string) => void renameFile.run(filename, fileId),
    setLifecycle: (assetId: string, change: Pick<AssetRow, 'state' | 'state_before_bin' | 'date_pending_approval' | 'date_live'>, now: string) =>
      void setLifecycle.run({ ...change, id: assetId, now }),
    /** Deletes a file row; returns the blob hash when no other file uses it any more. */
    deleteFile(row: FileRow): string | undefined {
      deleteFile.run(row.id);
      return (blobUsers.get(row.sha256)?.n ?? 0) === 0 ? row.sha256 : undefined;
    },
    /** Deletes an asset with all its files and values; returns the blob hashes no file uses any more. */
    deleteAsset(assetId: string): string[] {
      const files = filesOf.all(assetId);
      for (const file of files) deleteFile.run(file.id);
      deleteAsset.run(assetId);
      return [...new Set(files.map((file) => file.sha256))].filter((sha) => (blobUsers.get(sha)?.n ?? 0) === 0);
    },
    /**
     * `known`: the asset's current file row when the caller has it at hand, `knownValues` its values as
     * read in the same transaction (each saves reading it back).
     */
    render(row: AssetRow, preview: (file: FileRow) => PreviewFacts, known?: FileRow, knownValues?: Record<string, string[]>): Asset {
      const current =
        row.current_file_id === null ? undefined : known?.id === row.current_file_id ? known : fileById.get(row.account_id, row.current_file_id);
      return toAsset(row, knownValues ?? values(row.id), current, preview);
    },
    /**
     * Renders a page of asset rows (of one account) as `render` does each, with two reads for the whole
     * page; `previews` is told the page's current files once, and answers the preview of each.
     */
    renderAll(rows: readonly AssetRow[], previews: (files: readonly FileRow[]) => (file: FileRow) => PreviewFacts): Asset[] {
      if (rows.length === 0) return [];
      if (rows.length === 1 && rows[0] !== undefined) {
        const row = rows[0];
        const current = row.current_file_id === null ? undefined : fileById.get(row.account_id, row.current_file_id);
        return [this.render(row, previews(current === undefined ? [] : [current]), current)];
      }
      const valuesAt = rows.map((): Record<string, string[]> => ({}));
      for (const [at, fieldId, value] of JSON.parse(pageValues.get(JSON.stringify(rows.map((row) => row.id))) ?? '[]') as [number, string, string][]) {
        const values = valuesAt[at];
        if (values !== undefined) (values[fieldId] ??= []).push(value);
      }
      const currentIds = rows.flatMap((row) => (row.current_file_id === null ? [] : [row.current_file_id]));
      const files = new Map<string, FileRow>();
      if (currentIds.length > 0) {
        for (const tuple of JSON.parse(pageFiles.get(JSON.stringify(currentIds)) ?? '[]') as FileTuple[]) {
          const file = fileFromTuple(tuple);
          files.set(file.id, file);
        }
      }
      const preview = previews([...files.values()]);
      return rows.map((row, at) => {
        const current = row.current_file_id === null ? undefined : files.get(row.current_file_id);
        // A current file is of the asset's own account, as `render` reads it.
        return toAsset(row, valuesAt[at] ?? {}, current?.account_id === row.account_id ? current : undefined, preview);
      });
    },
    newFileId: () => ids.uuid(),
  };
}

export type AssetsRepo = ReturnType<typeof assetsRepo>;

/**
 * The change feed's marks (changes/change-feed.ts) [ours]: per account, a sequence number that moves
 * on every change of an asset, an asset file or a folder option, and for each kind of change the
 * number it last moved at. Triggers write them, so every path that changes those tables counts (routes,
 * batch jobs, uploads, another process on the same database) and none can forget to. One small row per
 * account and kind: a busy account rewrites the same few rows, never grows a log.
 */
const mark = (kind: string, account: string): string => /* sql */ `
  INSERT INTO change_marks (account_id, kind, seq)
  VALUES (${account}, '${kind}', (SELECT ifnull(max(seq), 0) + 1 FROM change_marks WHERE account_id = ${account}))
  ON CONFLICT (account_id, kind) DO UPDATE SET seq = excluded.seq;`;

const folderOption = (row: 'NEW' | 'OLD'): string => `EXISTS (SELECT 1 FROM fields WHERE id = ${row}.field_id AND role = 'FOLDERS')`;

export default /* sql */ `
CREATE TABLE change_marks (
  account_id TEXT NOT NULL,
  kind       TEXT NOT NULL,             -- ASSET | ASSET_FILE | ASSET_DELETED | FOLDER
  seq        INTEGER NOT NULL,          -- the account's sequence number when this kind last changed
  PRIMARY KEY (account_id, kind)
) WITHOUT ROWID;

CREATE TRIGGER change_asset_inserted AFTER INSERT ON assets BEGIN ${mark('ASSET', 'NEW.account_id')} END;
CREATE TRIGGER change_asset_updated AFTER UPDATE ON assets BEGIN ${mark('ASSET', 'NEW.account_id')} END;
CREATE TRIGGER change_asset_deleted AFTER DELETE ON assets BEGIN ${mark('ASSET_DELETED', 'OLD.account_id')} END;
CREATE TRIGGER change_file_inserted AFTER INSERT ON asset_files BEGIN ${mark('ASSET_FILE', 'NEW.account_id')} END;
CREATE TRIGGER change_file_updated AFTER UPDATE ON asset_files BEGIN ${mark('ASSET_FILE', 'NEW.account_id')} END;
CREATE TRIGGER change_file_deleted AFTER DELETE ON asset_files BEGIN ${mark('ASSET_FILE', 'OLD.account_id')} END;
CREATE TRIGGER change_folder_inserted AFTER INSERT ON field_options WHEN ${folderOption('NEW')} BEGIN ${mark('FOLDER', 'NEW.account_id')} END;
CREATE TRIGGER change_folder_updated AFTER UPDATE ON field_options WHEN ${folderOption('NEW')} BEGIN ${mark('FOLDER', 'NEW.account_id')} END;
CREATE TRIGGER change_folder_deleted AFTER DELETE ON field_options WHEN ${folderOption('OLD')} BEGIN ${mark('FOLDER', 'OLD.account_id')} END;
`;

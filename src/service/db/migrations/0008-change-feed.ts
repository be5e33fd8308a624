/**
 * The change feed's log (changes/change-feed.ts) [ours]: per account, a sequence of changes of assets,
 * asset files and folder options, each with its kind and a random stamp. Triggers write it, so every
 * path that changes those tables counts (routes, batch jobs, uploads, another process on the same
 * database) and none can forget to. The stamp lets a cursor name one exact point of the history: a
 * database restored from a backup writes new changes under the same numbers with other stamps, so a
 * client's cursor from before the restore is recognised as unknown instead of silently skipping
 * changes. The service keeps the latest entries of each account and prunes the rest.
 */
const log = (kind: string, account: string): string => /* sql */ `
  INSERT INTO change_log (account_id, seq, kind, stamp)
  VALUES (${account}, (SELECT ifnull(max(seq), 0) + 1 FROM change_log WHERE account_id = ${account}), '${kind}', lower(hex(randomblob(6))));`;

const folderOption = (row: 'NEW' | 'OLD'): string => `EXISTS (SELECT 1 FROM fields WHERE id = ${row}.field_id AND role = 'FOLDERS')`;

export default /* sql */ `
CREATE TABLE change_log (
  account_id TEXT NOT NULL,
  seq        INTEGER NOT NULL,          -- the account's own sequence: numbers say nothing of other accounts
  kind       TEXT NOT NULL,             -- ASSET | ASSET_FILE | ASSET_DELETED | FOLDER
  stamp      TEXT NOT NULL,             -- random: tells this history's entry from another's with the same number
  PRIMARY KEY (account_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER change_asset_inserted AFTER INSERT ON assets BEGIN ${log('ASSET', 'NEW.account_id')} END;
CREATE TRIGGER change_asset_updated AFTER UPDATE ON assets BEGIN ${log('ASSET', 'NEW.account_id')} END;
CREATE TRIGGER change_asset_deleted AFTER DELETE ON assets BEGIN ${log('ASSET_DELETED', 'OLD.account_id')} END;
CREATE TRIGGER change_file_inserted AFTER INSERT ON asset_files BEGIN ${log('ASSET_FILE', 'NEW.account_id')} END;
CREATE TRIGGER change_file_updated AFTER UPDATE ON asset_files BEGIN ${log('ASSET_FILE', 'NEW.account_id')} END;
CREATE TRIGGER change_file_deleted AFTER DELETE ON asset_files BEGIN ${log('ASSET_FILE', 'OLD.account_id')} END;
CREATE TRIGGER change_folder_inserted AFTER INSERT ON field_options WHEN ${folderOption('NEW')} BEGIN ${log('FOLDER', 'NEW.account_id')} END;
CREATE TRIGGER change_folder_updated AFTER UPDATE ON field_options WHEN ${folderOption('NEW')} BEGIN ${log('FOLDER', 'NEW.account_id')} END;
CREATE TRIGGER change_folder_deleted AFTER DELETE ON field_options WHEN ${folderOption('OLD')} BEGIN ${log('FOLDER', 'OLD.account_id')} END;
`;

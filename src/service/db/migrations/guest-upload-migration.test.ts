import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase } from '../open-database.js';
import { migrations } from './index.js';
import { tempDir } from '../../../../test/support/temp-dir.js';

describe('migration 0018: the guest link of an upload', () => {
  it("marks the open uploads of a link's assets that have no file yet, and nothing else", () => {
    const file = join(tempDir('guest-migration-'), 'service.db');
    const old = new Database(file);
    // Only the rows this migration reads; the folders and users they point to do not matter to it.
    old.pragma('foreign_keys = OFF');
    for (const sql of migrations.slice(0, 17)) old.exec(sql);
    old.pragma('user_version = 17');
    old.prepare("INSERT INTO accounts (id, subdomain, name, date_created) VALUES ('acc', 'local', 'Local', 'now')").run();
    old.prepare(
      "INSERT INTO guest_uploads (id, account_id, key_hash, name, folder_id, max_file_size, max_files, created_by, date_created) VALUES ('link', 'acc', 'h', 'Drop', 'folder', 10, 10, 'user', 'now')",
    ).run();
    const asset = old.prepare("INSERT INTO assets (id, account_id, state, date_created, date_last_modified, current_file_id) VALUES (?, 'acc', 'STAGED', 'now', 'now', ?)");
    asset.run('fresh', null);
    asset.run('sent', 'file');
    asset.run('own', null);
    old.prepare("INSERT INTO guest_upload_assets (guest_upload_id, asset_id) VALUES ('link', 'fresh'), ('link', 'sent')").run();
    const upload = old.prepare(
      "INSERT INTO uploads (upload_id, id, account_id, asset_id, asset_file_id, filename, size, part_size, part_count, created_by, date_created, last_activity) VALUES (?, ?, 'acc', ?, ?, 'a.bin', 20, 10, 2, 'user', 'now', 0)",
    );
    upload.run('guest-open', 'u1', 'fresh', null);
    upload.run('guest-done', 'u2', 'sent', 'file');
    upload.run('new-version', 'u3', 'sent', null);
    upload.run('account-own', 'u4', 'own', null);
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.prepare('SELECT upload_id, guest_upload_id FROM uploads ORDER BY upload_id').all()).toEqual([
        { upload_id: 'account-own', guest_upload_id: null },
        { upload_id: 'guest-done', guest_upload_id: null },
        { upload_id: 'guest-open', guest_upload_id: 'link' },
        { upload_id: 'new-version', guest_upload_id: null },
      ]);
    } finally {
      db.close();
    }
  });
});

/**
 * Puts many small files into a local service's data directory directly (database rows + blobs), far
 * faster than uploading them: for the download benchmarks. Rows look like the upload flow's (a STAGED
 * asset with a current file in a folder), and so do the bytes: up to INLINE_BLOB_BYTES in the database,
 * as a one-part upload keeps them, larger ones as blob files. The service may be running (SQLite WAL
 * serialises writers).
 * Also writes each file's bytes under `rawDir/<n>` for the baseline server.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withDataDir } from '../../src/service/cli/data-dir.js';
import { blobPath } from '../../src/service/blobs/blob-layout.js';
import { INLINE_BLOB_BYTES, inlineBlobs } from '../../src/service/blobs/inline-blobs.js';
import { md5Hex, sha256Hex } from '../../test/support/checksums.js';

export interface SeededFiles {
  count: number;
  bytes: number;
}

/** `count` files of 1–32 KiB in `folders` top-level folders of the Folders field. */
export async function seedServiceFiles(dataDir: string, rawDir: string, count: number, folders: number): Promise<SeededFiles> {
  mkdirSync(rawDir, { recursive: true });
  return withDataDir(dataDir, undefined, ({ db, account }) => {
    const field = db.prepare<[string], { id: string }>("SELECT id FROM fields WHERE account_id = ? AND name = 'Folders'").get(account.id);
    if (field === undefined) throw new Error('no Folders field');
    const now = new Date().toISOString();
    const insertOption = db.prepare('INSERT INTO field_options (id, account_id, field_id, parent_id, value, position) VALUES (?, ?, ?, NULL, ?, ?)');
    const insertAsset = db.prepare(
      `INSERT INTO assets (id, account_id, current_file_id, state, date_staged, staged_by, date_created, date_last_modified, date_last_file_added)
       VALUES (?, ?, ?, 'STAGED', ?, NULL, ?, ?, ?)`,
    );
    const insertFile = db.prepare(
      `INSERT INTO asset_files (id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'application', 'octet-stream', 'OTHER', NULL, NULL, ?, NULL)`,
    );
    const insertValue = db.prepare('INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES (?, ?, 0, ?)');
    const inline = inlineBlobs(db);
    let bytes = 0;
    db.transaction(() => {
      const options = Array.from({ length: folders }, (_, index) => {
        const id = randomUUID();
        insertOption.run(id, account.id, field.id, `Folder ${String(index).padStart(3, '0')}`, index);
        return id;
      });
      for (let index = 0; index < count; index++) {
        const content = randomBytes(1024 + ((index * 7919) % (31 * 1024)));
        bytes += content.length;
        const sha256 = sha256Hex(content);
        if (content.length <= INLINE_BLOB_BYTES) {
          inline.put(sha256, content);
        } else {
          const blob = blobPath(join(dataDir, 'blobs'), sha256);
          mkdirSync(dirname(blob), { recursive: true });
          writeFileSync(blob, content);
        }
        writeFileSync(join(rawDir, String(index)), content);
        const assetId = randomUUID();
        const fileId = randomUUID();
        insertAsset.run(assetId, account.id, fileId, now, now, now, now);
        insertFile.run(fileId, account.id, assetId, `file ${String(index).padStart(5, '0')}.bin`, content.length, md5Hex(content), sha256, now);
        insertValue.run(assetId, field.id, options[index % folders] ?? '');
      }
    })();
    return { count, bytes };
  });
}

/**
 * A state database holding one root (`r` at /sync), its upload journal, and an in-memory disk with one
 * file: the setup the upload executors' unit tests resume from. Closed after `work`.
 */
import { openStateDb } from '../../src/main/db/open-state-db.js';
import { uploadJournal, type UploadJournal } from '../../src/main/db/upload-journal.js';
import { MemoryFileSystem } from '../../src/main/local/index.js';
import type { LocalEntry } from '../../src/main/sync/sync-types.js';

export const JOURNAL_ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };

/** The root, its journal, and a disk holding `relPath` (its entry read as `md5`). */
export async function withJournalledFile<T>(relPath: string, content: string, md5: string, work: (setup: { journal: UploadJournal; disk: MemoryFileSystem; local: LocalEntry }) => Promise<T>): Promise<T> {
  const db = openStateDb(':memory:');
  try {
    db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
    const disk = new MemoryFileSystem();
    disk.writeFile(`/sync/${relPath}`, content);
    const stat = await disk.lstat(`/sync/${relPath}`);
    return await work({ journal: uploadJournal(db), disk, local: { relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5 } });
  } finally {
    db.close();
  }
}

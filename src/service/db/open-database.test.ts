import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { MMAP_BYTES, WAL_CHECKPOINT_PAGES, openDatabase } from './open-database.js';
import { migrations } from './migrations/index.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('openDatabase', () => {
  it('opens in WAL mode with foreign keys, the longer checkpoint interval, journals in memory, reads mapped, and every migration applied', () => {
    const db = openDatabase(join(tempDir('open-database-'), 'service.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_CHECKPOINT_PAGES);
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
      // As much as asked, or SQLite's compile-time cap (just under 2 GB).
      expect(db.pragma('mmap_size', { simple: true })).toBeGreaterThanOrEqual(Math.min(MMAP_BYTES, 0x7fff0000));
      // The first hash table of the log's index holds 4,062 frames: the interval stays within it.
      expect(WAL_CHECKPOINT_PAGES).toBeLessThanOrEqual(4062);
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      db.close();
    }
  });
});

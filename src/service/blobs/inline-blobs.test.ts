import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../db/open-database.js';
import { createBlobStore } from './blob-store.js';
import { INLINE_BLOB_BYTES, inlineBlobs } from './inline-blobs.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('inline blobs', () => {
  function open() {
    const dir = tempDir('inline-blobs-');
    const db = openDatabase(join(dir, 'service.db'));
    return { db, store: createBlobStore(join(dir, 'blobs'), undefined, undefined, inlineBlobs(db)) };
  }

  it('keeps bytes once per hash, serves them as the source, and removes them', () => {
    const { db, store } = open();
    try {
      const sha = 'a'.repeat(64);
      expect(store.has(sha)).toBe(false);
      expect(store.source(sha)).toEqual({ path: store.pathOf(sha) });
      store.keepInline(sha, Buffer.from('first'));
      // The same hash again is the same bytes: the first copy stays.
      store.keepInline(sha, Buffer.from('first'));
      expect(store.has(sha)).toBe(true);
      expect(store.source(sha)).toEqual({ bytes: Buffer.from('first') });
      expect(db.prepare('SELECT count(*) AS n FROM inline_blobs').get()).toEqual({ n: 1 });
      store.remove(sha);
      expect(store.has(sha)).toBe(false);
    } finally {
      db.close();
    }
  });

  it('commits or rolls back with the transaction it runs in', () => {
    const { db, store } = open();
    try {
      const sha = 'b'.repeat(64);
      expect(() =>
        db.transaction(() => {
          store.keepInline(sha, Buffer.from('lost with the row'));
          throw new Error('the row could not be written');
        })(),
      ).toThrow('the row could not be written');
      expect(store.has(sha)).toBe(false);
    } finally {
      db.close();
    }
  });

  it('refuses bytes larger than an inline blob, and a store without a database keeps none', () => {
    const { db, store } = open();
    try {
      expect(() => store.keepInline('c'.repeat(64), Buffer.alloc(INLINE_BLOB_BYTES + 1))).toThrow('too large');
      expect(() => createBlobStore(join(tempDir('no-inline-'), 'blobs')).keepInline('c'.repeat(64), Buffer.alloc(1))).toThrow('keeps no blobs inline');
    } finally {
      db.close();
    }
  });
});

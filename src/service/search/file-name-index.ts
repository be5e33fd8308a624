/**
 * Brings the file-name trigram index up to date with the files added since it last was (the tail above
 * `indexed_through`, migration 0022), many files to a commit: FTS5 writes a segment per commit, so a
 * thousand names indexed together cost a fraction of a thousand indexed one commit at a time. Searches
 * read the tail beside the index (text-prefilter.ts), so how far behind the index is changes how much
 * of the tail a search reads, never what it finds.
 *
 * The service runs it now and then and at start (a chunk per turn of the event loop until caught up,
 * so a large import does not hold the service for the whole of it); tests and the benchmark's seeder
 * run it to the end.
 */
import type { Db } from '../db/open-database.js';

/** Names indexed per commit: large enough to spread a segment's cost, small enough to stay a few ms. */
export const FILE_NAME_CHUNK = 2_000;

export interface FileNameIndex {
  /** Indexes up to `limit` files of the tail in one transaction; answers how many it indexed. */
  catchUp(limit?: number): number;
  /** Indexes the whole tail. */
  catchUpAll(): void;
  /** After the index was built afresh from every row: nothing is left in the tail. */
  markAllIndexed(): void;
}

export function fileNameIndex(db: Db): FileNameIndex {
  const mark = db.prepare<[], { indexed_through: number }>(`SELECT indexed_through FROM text_index_progress WHERE name = 'file_names'`);
  // Where a chunk of the tail ends: the rowid of its last file.
  const chunkEnd = db.prepare<[number, number], number | null>('SELECT max(rowid) FROM (SELECT rowid FROM asset_files WHERE rowid > ? ORDER BY rowid LIMIT ?)').pluck();
  const index = db.prepare<[number, number]>('INSERT INTO file_name_trigrams (rowid, filename) SELECT rowid, filename FROM asset_files WHERE rowid > ? AND rowid <= ?');
  const move = db.prepare<[number]>(`UPDATE text_index_progress SET indexed_through = ? WHERE name = 'file_names'`);
  const catchUp = db.transaction((limit: number): number => {
    const from = mark.get()?.indexed_through ?? 0;
    const through = chunkEnd.get(from, limit);
    if (through === null || through === undefined) return 0;
    const indexed = index.run(from, through).changes;
    move.run(through);
    return indexed;
  });
  return {
    catchUp: (limit = FILE_NAME_CHUNK) => catchUp(limit),
    catchUpAll() {
      while (catchUp(FILE_NAME_CHUNK) === FILE_NAME_CHUNK);
    },
    markAllIndexed() {
      db.prepare(`UPDATE text_index_progress SET indexed_through = (SELECT coalesce(max(rowid), 0) FROM asset_files) WHERE name = 'file_names'`).run();
    },
  };
}

/** Runs `index.catchUp` every `everyMs`, and turn after turn while it finds full chunks, until closed. */
export class FileNameIndexing {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly index: FileNameIndex,
    private readonly onError: (error: unknown) => void,
    private readonly everyMs = 1_000,
  ) {}

  start(): void {
    this.run();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
  }

  private readonly run = (): void => {
    if (this.closed) return;
    let indexed = 0;
    try {
      indexed = this.index.catchUp();
    } catch (error) {
      // The tail stays searchable where it is; the next turn tries again.
      this.onError(error);
    }
    if (indexed === FILE_NAME_CHUNK) {
      this.immediate = setImmediate(this.run);
      return;
    }
    this.timer = setTimeout(this.run, this.everyMs);
    this.timer.unref();
  };
}

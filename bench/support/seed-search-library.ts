/**
 * A library of a million assets written straight into the service's database through its own schema,
 * for the search bench: rows as the upload flow leaves them (an asset, its current file, its Folders
 * value) plus two keywords each, inserted in transactions of 50,000 rows with prepared statements and
 * positional parameters. Uploading them would measure uploads, not search.
 *
 * Shape: 100 top folders of 20 sub-folders each (2,000 leaves, 500 assets each: libraries grow by
 * folders, not by folder size); assets made over a year, oldest first, with time-ordered ids as the
 * service makes them; every 11th STAGED, every 97th BINNED, the rest LIVE; file names
 * `NOUN-ADJECTIVE-N.jpg` from 500 nouns and 20 adjectives (a noun names ~2,000 files, a noun with its
 * adjective ~100); keywords from 1,000 words (~2,000 assets each). Words are 5–7 random letters, so
 * their trigrams spread as a real vocabulary's do, not as a few syllables' would.
 */
import type { ServiceContext } from '../../src/service/context.js';
import { IdStamps, timeOrderedUuid } from '../../src/service/db/time-ordered-id.js';
import { fileNameIndex } from '../../src/service/search/file-name-index.js';

export interface SearchLibrary {
  assets: number;
  foldersId: string;
  keywordsId: string;
  /** Top folders, each with its sub-folders (ids). */
  tops: { id: string; subs: string[] }[];
  nouns: readonly string[];
  adjectives: readonly string[];
  keywords: readonly string[];
  /** The newest asset's date_last_modified (epoch ms). */
  newestMs: number;
  seedMs: number;
  /** The assets were already there (a kept data dir seeded by an earlier run): only the folders were looked up. */
  reused: boolean;
}

const TOPS = 100;
const SUBS = 20;
const CHUNK = 50_000;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** `count` distinct words of 5–7 random letters (a fixed seed: the same library every run). */
function words(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state >>> 8;
  };
  const found = new Set<string>();
  while (found.size < count) {
    const length = 5 + (next() % 3);
    let word = '';
    for (let letter = 0; letter < length; letter++) word += String.fromCharCode(97 + (next() % 26));
    found.add(word);
  }
  return [...found];
}

/** The adjective of asset `index`'s file name: every noun meets every adjective (~100 files each per million). */
const fileAdjective = (index: number): number => (index * 7 + Math.floor(index / 500)) % 20;

/** A text that names ~1 in 10,000 files (`NOUN-ADJECTIVE`), from asset `index`'s file name. */
export function fileNameText(library: SearchLibrary, index: number): string {
  return `${library.nouns[(index * 31) % library.nouns.length] ?? ''}-${library.adjectives[fileAdjective(index)] ?? ''}`;
}

export function seedSearchLibrary(ctx: ServiceContext, accountId: string, assetCount: number): SearchLibrary {
  const started = performance.now();
  const startMs = Date.UTC(2026, 0, 1);
  const step = YEAR_MS / assetCount;
  const foldersId = ctx.fields.byRole(accountId, 'FOLDERS')?.id ?? '';
  const keywordsId = ctx.fields.byRole(accountId, 'KEYWORDS')?.id ?? '';
  const tops = ctx.db.transaction(() =>
    Array.from({ length: TOPS }, (_, top) => ({
      id: ctx.fieldOptions.ensurePath(accountId, foldersId, [`Top ${top}`]),
      subs: Array.from({ length: SUBS }, (_, sub) => ctx.fieldOptions.ensurePath(accountId, foldersId, [`Top ${top}`, `Sub ${sub}`])),
    })),
  )();
  const leaves = tops.flatMap((top) => top.subs);
  const [nouns, adjectives, keywords] = [words(500, 1), words(20, 2), words(1000, 3)];
  const newestMs = startMs + Math.floor((assetCount - 1) * step);
  // The same library is made every run, so one seeded earlier (a kept data dir) is used as it is.
  const present = Number(ctx.db.prepare('SELECT count(*) FROM assets WHERE account_id = ?').pluck().get(accountId));
  if (present === assetCount) return { assets: assetCount, foldersId, keywordsId, tops, nouns, adjectives, keywords, newestMs, seedMs: performance.now() - started, reused: true };
  if (present !== 0) throw new Error(`the data dir holds ${present} assets, not ${assetCount}: seed into an empty one`);

  const insertAsset = ctx.db.prepare(
    `INSERT INTO assets (id, account_id, current_file_id, state, date_staged, date_pending_approval, date_live, staged_by, date_created, date_last_modified, date_last_file_added)
     VALUES (?, ?, ?, ?, ?, NULL, ?, 'seed-user', ?, ?, ?)`,
  );
  const insertFile = ctx.db.prepare(
    `INSERT INTO asset_files (id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by)
     VALUES (?, ?, ?, ?, 1, ?, ?, 'image', 'jpeg', 'IMAGE', NULL, NULL, ?, NULL)`,
  );
  const insertValue = ctx.db.prepare('INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES (?, ?, ?, ?)');
  const stamps = new IdStamps();
  const insertChunk = ctx.db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const ms = startMs + Math.floor(index * step);
      const iso = new Date(ms).toISOString();
      const id = timeOrderedUuid(ms, stamps);
      const fileId = timeOrderedUuid(ms, stamps);
      const state = index % 97 === 0 ? 'BINNED' : index % 11 === 0 ? 'STAGED' : 'LIVE';
      const checksum = id.replaceAll('-', '');
      insertAsset.run(id, accountId, fileId, state, iso, state === 'LIVE' ? iso : null, iso, iso, iso);
      const name = `${nouns[(index * 31) % nouns.length] ?? ''}-${adjectives[fileAdjective(index)] ?? ''}-${index % 1000}.jpg`;
      insertFile.run(fileId, accountId, id, name, checksum, checksum, iso);
      insertValue.run(id, foldersId, 0, leaves[(index * 13) % leaves.length] ?? '');
      insertValue.run(id, keywordsId, 0, keywords[(index * 17) % keywords.length] ?? '');
      insertValue.run(id, keywordsId, 1, keywords[(index * 29 + 500) % keywords.length] ?? '');
    }
  });
  // A page cache that holds the indexes while they are written (measured at 200,000 assets: 62 → 26 s),
  // then the service's own again, so the searches are timed as the service runs them.
  const cacheSize = Number(ctx.db.pragma('cache_size', { simple: true }));
  ctx.db.pragma('cache_size = -1048576');
  try {
    for (let from = 0; from < assetCount; from += CHUNK) insertChunk(from, Math.min(assetCount, from + CHUNK));
    // The file names join their index as the service's indexer would take them, before any search.
    fileNameIndex(ctx.db).catchUpAll();
  } finally {
    ctx.db.pragma(`cache_size = ${cacheSize}`);
  }
  ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  return { assets: assetCount, foldersId, keywordsId, tops, nouns, adjectives, keywords, newestMs, seedMs: performance.now() - started, reused: false };
}

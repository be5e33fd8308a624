/**
 * Finds the assets an asset-and-upload job made for new files whose answer never came (a crash, a
 * lost connection): the journal holds an intent without an asset, and the job may have made one.
 * Asked by the new-file batches, the restart's resume, the sweep of abandoned uploads and a version
 * that supersedes a new file's upload, before any of them creates or bins anything.
 *
 * Sits under those upload jobs; reads the journal, asks the service, writes nothing. Must never adopt
 * an asset the journal already names, nor one it cannot tell from another device's upload while that
 * upload may still be under way.
 */
import { isApiError } from '../api/index.js';
import type { JournalEntry } from '../db/upload-journal.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { SyncError } from '../model/sync-error.js';
import type { UploadExecutorDeps, UploadRoot } from './upload-common.js';

/** What an adoption found: the asset for each entry it could place, and the entries that must wait. */
export interface Adoption {
  adopted: Map<string, string>;
  undecided: Set<string>;
}

/** DATE_STAGED is the service's clock, an intent's date the client's: a client this far ahead still finds its assets. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** How long an interrupted upload waits for another device's uploads in its folder to end before it picks. */
const AMBIGUOUS_WAIT_MS = 60 * 60_000;

export class OrphanAdoption {
  constructor(private readonly deps: Pick<UploadExecutorDeps, 'api' | 'journal' | 'folders' | 'nowIso'>) {}

  /**
   * Finds assets a batch job created just before a crash lost its answer: by the job, when its id was
   * heard and the service still knows it; otherwise by search: STAGED by us, without a file, in the
   * folder the file was going to, staged no earlier than the intent was written (less the clock skew
   * allowed). Each journal entry of that folder takes one, in the order they were staged — except
   * assets the journal already names: an upload under way in the same folder has an empty asset too,
   * and taking it would put two files on one asset.
   *
   * The search cannot tell this client's assets from another client's of the same user (another
   * device uploading into the same folder: its asset is empty until its upload completes). Adopting
   * one of those puts this file on that asset, the other device's file on top of it as a new version,
   * and leaves this client's own asset empty for good. So when the folder holds more such assets than
   * entries to place, none is taken: the entries wait (`undecided`) for the other uploads to complete,
   * which gives their assets a file and takes them out of the search. Two devices whose answers were
   * both lost wait on each other: after AMBIGUOUS_WAIT_MS what is left is taken in the order it was
   * staged. An upload under way elsewhere has had an hour to finish by then, and one staged five
   * minutes or more before this intent was never a candidate.
   */
  async adopt(root: UploadRoot, orphans: readonly JournalEntry[]): Promise<Adoption> {
    const adopted = new Map<string, string>();
    const undecided = new Set<string>();
    const owned = new Set(this.deps.journal.all(root.id).flatMap((entry) => (entry.assetId === null ? [] : [entry.assetId])));
    // A job whose id was heard says which asset it made for which item. The search below cannot: two
    // clients of one user, each with an empty staged asset of its own in the folder, look the same to
    // it, and a client that adopts the other's asset leaves its own empty for good.
    const byJob = new Map<string, JournalEntry[]>();
    for (const entry of orphans) if (entry.jobId !== null) byJob.set(entry.jobId, [...(byJob.get(entry.jobId) ?? []), entry]);
    const searched: JournalEntry[] = orphans.filter((entry) => entry.jobId === null);
    for (const [jobId, entries] of byJob) {
      const outcome = await this.deps.api.uploadJobOutcome(jobId).catch((error: unknown) => {
        // The service no longer knows the job (kept for a while only): look for its assets instead.
        if (isApiError(error, 'NOT_FOUND')) return undefined;
        throw error;
      });
      if (outcome === undefined) {
        searched.push(...entries);
        continue;
      }
      for (const entry of entries) {
        const assetId = outcome.successes[entry.batchItemId]?.assetId;
        if (assetId === undefined) continue;
        adopted.set(entry.relPath, assetId);
        owned.add(assetId);
      }
    }
    if (searched.length > 0) await this.adoptBySearch(root, searched, { owned, adopted, undecided });
    return { adopted, undecided };
  }

  /**
   * The search half of `adopt`. The job filed each asset under the option its directory mapped to
   * then (kept in the journal), and an option keeps its id when renamed: each entry is looked for
   * there, not where its path leads now (a colleague's respelling of `A/C` as `A/c` leaves the asset
   * in the option now named `A/c`). An intent from before the option was kept is looked for where its
   * path leads.
   */
  private async adoptBySearch(root: UploadRoot, searched: readonly JournalEntry[], found: Adoption & { owned: Set<string> }): Promise<void> {
    const { owned, adopted, undecided } = found;
    const byFolder = new Map<string | null, JournalEntry[]>();
    for (const entry of searched) {
      const option = entry.folderOption ?? (await this.deps.folders.optionFor(root, relDirOf(entry.relPath)));
      byFolder.set(option, [...(byFolder.get(option) ?? []), entry]);
    }
    const fieldId = await this.deps.folders.fieldId();
    const me = (await this.deps.api.currentUser()).result.id;
    const now = Date.parse(this.deps.nowIso());
    /** Places the entries on the free assets the search finds in `option`; false when it finds none. */
    const place = async (option: string | null, entries: readonly JournalEntry[]): Promise<boolean> => {
      const folder = option === null ? { type: 'FIELD_IS_EMPTY', field: { type: 'FIELD', fieldId } } : { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId }, value: option };
      const written = Math.min(...entries.map((entry) => Date.parse(entry.dateCreated)));
      const page = await this.deps.api.searchAssets({
        criterion: {
          type: 'AND',
          criteria: [
            folder,
            { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' },
            { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'STAGED_BY' }, value: me },
            { type: 'FIELD_IS_EMPTY', field: { type: 'FIXED', fieldName: 'CHECKSUM' } },
            { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'DATE_STAGED' }, value: `[${new Date(written - CLOCK_SKEW_MS).toISOString()} TO *]` },
          ],
        },
        sorts: [{ field: { type: 'FIXED', fieldName: 'DATE_STAGED' }, order: 'ASC' }],
        from: 0,
        // One more than there can be of ours: enough to see that another device has one here too.
        pageSize: Math.min(1000, entries.length + owned.size + 1),
      });
      const free = page.results.map((found) => found.result.id).filter((id) => !owned.has(id));
      if (free.length > entries.length && entries.some((entry) => now - Date.parse(entry.dateCreated) < AMBIGUOUS_WAIT_MS)) {
        for (const entry of entries) undecided.add(entry.relPath);
        return true;
      }
      free.forEach((assetId, index) => {
        const entry = entries[index];
        if (entry !== undefined) adopted.set(entry.relPath, assetId);
      });
      return free.length > 0;
    };
    for (const [option, entries] of byFolder) {
      if ((await place(option, entries)) || option === null) continue;
      // Nothing where the folder cache said the directory was. The job's path names its folder, and the
      // service files the asset under the option of that name: when the cache was behind (the folder
      // renamed by another client or a colleague, not yet listed here), a new option of the old name.
      // Its empty asset is looked for there too, or it stays live beside the file's next asset (a
      // second job's; sim/stale-folder-cache.test.ts).
      const byDir = new Map<string, JournalEntry[]>();
      for (const entry of entries) byDir.set(relDirOf(entry.relPath), [...(byDir.get(relDirOf(entry.relPath)) ?? []), entry]);
      for (const [relDir, inDir] of byDir) {
        const named = await this.deps.folders.namedNow(root, relDir);
        if (named !== undefined && named !== option) await place(named, inDir);
      }
    }
  }
}

/** No entry adopted, none waiting. */
export function noAdoption(): Adoption {
  return { adopted: new Map<string, string>(), undecided: new Set<string>() };
}

export function undecidedError(): SyncError {
  return new SyncError(
    'UPLOAD_UNDECIDED',
    'An interrupted upload left an empty asset that cannot be told apart from another upload of yours (another device?) into this folder; it is tried again once that upload ends.',
  );
}

/**
 * Ends the new files' uploads that no upload will ever finish, while the engine runs: the file went
 * away (renamed, a case-only rename included, moved, deleted after an upload failed or was
 * interrupted), or its path now holds another asset's file (a colleague's file took the name and ours
 * became a conflict copy). An empty asset goes to the bin and a completed one gone from disk is
 * recorded (upload-remains.ts), as the restart's resume does. Without this the entry would stay for
 * good, and the asset the batch job made would stay on the service without a file.
 *
 * Sits under the upload executor (its `dropAbandoned`), called by the pass after it executes. Must
 * never end an upload whose file is still where the journal says, nor decide "no asset" for an entry
 * whose job's assets could not be looked for.
 */
import type { JournalEntry } from '../db/upload-journal.js';
import { PathLocator } from '../local/index.js';
import { locateFile } from './locate-file.js';
import type { OrphanAdoption } from './orphan-adoption.js';
import type { ChangedOnDisk, UploadExecutorDeps, UploadRoot } from './upload-common.js';
import type { UploadRemains } from './upload-remains.js';

export class AbandonedUploads {
  constructor(
    private readonly deps: Pick<UploadExecutorDeps, 'fs' | 'journal'>,
    private readonly shared: { adoption: OrphanAdoption; remains: UploadRemains; changedOnDisk: ChangedOnDisk },
  ) {}

  /**
   * Ends the abandoned uploads of `root`. An entry without an asset adopts its job's asset first;
   * whatever cannot be settled now (the service unreachable) is kept for the next pass. Returns the
   * paths whose upload ended.
   *
   * Looks only at the entries the snapshots no longer back (`UploadJournal.unbacked`: one query) and
   * those whose upload found its file changed on disk since the last sweep: the scan already said
   * where the others' files are. Each of those is looked for on disk as spelled (`exactNames`): on a
   * case-insensitive disk `Logo.png` answers an lstat of `logo.png`, and the entry of a file renamed
   * so would stay for good while its new name uploaded as another asset. Stat-ing every entry instead
   * costs a file system call per new file still to upload after each pass (thousands during an
   * offline ingest).
   */
  async dropAbandoned(root: UploadRoot): Promise<string[]> {
    const { journal } = this.deps;
    const { changedOnDisk, remains } = this.shared;
    const candidates = new Map(journal.unbacked(root.id).map((candidate) => [candidate.entry.relPath, candidate]));
    // A file swapped mid-pass (for a symlink, say) is still a file in the snapshot until the next scan.
    for (const relPath of changedOnDisk.get(root.id) ?? []) {
      const entry = candidates.has(relPath) ? undefined : journal.get(root.id, relPath);
      if (entry?.kind === 'NEW') candidates.set(relPath, { entry, holder: undefined });
    }
    changedOnDisk.delete(root.id);
    if (candidates.size === 0) return [];
    const locator = new PathLocator(this.deps.fs, root.path, { exactNames: true });
    const gone: { entry: JournalEntry; holder: string | undefined }[] = [];
    for (const candidate of candidates.values()) {
      if (candidate.holder !== undefined) gone.push(candidate);
      else if ((await locateFile(this.deps.fs, root.path, candidate.entry.relPath, locator).catch(() => undefined)) === undefined) gone.push(candidate);
    }
    if (gone.length === 0) return [];
    const orphans = gone.filter(({ entry }) => entry.assetId === null).map(({ entry }) => entry);
    const adoption = orphans.length === 0 ? { adopted: new Map<string, string>(), undecided: new Set<string>() } : await this.shared.adoption.adopt(root, orphans).catch(() => undefined);
    const dropped: string[] = [];
    for (const { entry, holder } of gone) {
      // Not knowing whether the job made an asset is not "it made none": asked again next pass.
      if (entry.assetId === null && (adoption === undefined || adoption.undecided.has(entry.relPath))) continue;
      const assetId = entry.assetId ?? adoption?.adopted.get(entry.relPath);
      try {
        // A file gone: its upload may have completed unheard (recorded as synced, so it follows the
        // file's move or deletion); a path another asset took: ours is binned only if empty.
        if (assetId !== undefined && holder === undefined) await remains.vanishedUpload(root, entry, assetId);
        else if (assetId !== undefined) await remains.binIfEmpty(assetId);
      } catch {
        continue;
      }
      journal.finish(root.id, entry.relPath);
      dropped.push(entry.relPath);
    }
    return dropped;
  }
}

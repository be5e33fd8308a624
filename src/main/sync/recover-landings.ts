/**
 * After a crash: the downloads an earlier process renamed into place but never recorded (the download
 * journal, landing-journal.ts), and likewise its moves of the service's (`LOCAL_MOVE`: their temp file
 * is the synced file at its old path). Each landing is settled before the pass plans, by what the disk
 * shows:
 *
 * - its temp file is still there (the same file): the rename never happened. The landing goes; the
 *   next download resumes from the temp file (a move is planned again).
 * - the file it became is on disk (the same device and inode), at its path or anywhere else in the root
 *   (the user moved, renamed or edited it since): it landed. The synced snapshot records it as the lost
 *   record would have, at the path it landed at; the planner then sees a move, an edit or nothing, as
 *   after any recorded download (not a new file, uploaded as a second asset). A move's record also
 *   leaves the synced row's old path: left there, the file at its new name (numbered apart from a
 *   namesake, edited since) would be a new file, and a new one the user wrote at the old name that
 *   asset's edit (test/integration/sync-local-move-crash.test.ts, sync-landing-crash.test.ts).
 * - neither, but something is at its path (or at a folder above it) that the scan could not look at
 *   (unreadable: EACCES, EIO): undecided. The landing stays, and a later pass that can see the file
 *   settles it. Dropped there, the landed file would be a new one once it was readable again, uploaded
 *   as a second asset of the service's file when its path held another asset by then
 *   (recover-landings.test.ts).
 * - neither: the file is gone (deleted since, or the rename never happened and the temp went too). The
 *   landing goes and nothing is recorded, so the service's file downloads again: a file that may have
 *   been deleted comes back rather than a deletion reaching the service on a guess.
 *
 * Must run after a full scan (the local snapshot is where it looks for the landed file) and before the
 * plan. Rejects when a temp file cannot be looked at (only ENOENT or ENOTDIR says it is gone).
 */
import type { Landing } from '../model/landing.js';
export { landedRecord } from '../model/landing.js';
import { errnoCode, type FileStat, type FileSystem } from '../local/index.js';
import type { LocalEntry, PendingSignature } from './sync-types.js';

export interface RecoverLandingsDeps {
  fs: Pick<FileSystem, 'lstat'>;
  /** The landings the journal still holds. */
  unrecorded(rootId: string): Landing[];
  /** The rename never happened, or its file is gone: forgets the landing. */
  dropped(rootId: string, relPath: string): void;
  /** Records landed files in the synced snapshot (`landedRecord`) and forgets their landings, in one transaction. */
  recorded(rootId: string, landed: readonly Landing[]): void;
}

export type LandingVerdict = 'not-renamed' | 'landed' | 'unseen' | 'gone';

/**
 * Where a landing stands, from its temp file's lstat (undefined: no such file), the files on disk now,
 * and whether its path (or a folder above it) is present but could not be looked at.
 */
export function landingVerdict(landing: Landing, temp: FileStat | undefined, onDisk: Iterable<Pick<LocalEntry, 'ino' | 'dev'>>, unseen = false): LandingVerdict {
  const same = (file: Pick<LocalEntry, 'ino' | 'dev'>): boolean => file.ino === landing.local.ino && file.dev === landing.local.dev;
  if (temp?.kind === 'file' && same(temp)) return 'not-renamed';
  for (const file of onDisk) if (same(file)) return 'landed';
  return unseen ? 'unseen' : 'gone';
}

/** What the scan saw of the root: the local snapshot, the files still settling, and `unstable` (LocalRefresh). */
export interface LandingDisk {
  local: ReadonlyMap<string, LocalEntry>;
  pending: ReadonlyMap<string, PendingSignature>;
  /** Paths present but not hashable now: the settling ones (`pending`) and the unreadable ones. */
  unstable: ReadonlySet<string>;
}

/**
 * Settles every landing of the root; answers how many were recorded as landed. `disk` is read only when
 * there is a landing (it is the whole local snapshot, and there almost never is one).
 */
export async function recoverLandings(rootId: string, disk: () => LandingDisk, deps: RecoverLandingsDeps): Promise<number> {
  const landings = deps.unrecorded(rootId);
  if (landings.length === 0) return 0;
  const { local, pending, unstable } = disk();
  const onDisk = [...local.values(), ...pending.values()];
  // Unstable without a signature: the scanner reported the path (UNREADABLE and the like) and never
  // said which file is there. A settling file has its signature in `pending`, so it was compared above.
  const unseen = (relPath: string): boolean => ancestorsAndSelf(relPath).some((path) => unstable.has(path) && !pending.has(path));
  const landed: Landing[] = [];
  for (const landing of landings) {
    // ENOTDIR: a move's old path, whose folder is a file now.
    const temp = await deps.fs.lstat(landing.tempPath).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
      throw error;
    });
    const verdict = landingVerdict(landing, temp, onDisk, unseen(landing.local.relPath));
    if (verdict === 'landed') landed.push(landing);
    else if (verdict !== 'unseen') deps.dropped(rootId, landing.local.relPath);
  }
  if (landed.length > 0) deps.recorded(rootId, landed);
  return landed.length;
}

/** `A/C/a.txt` → `A`, `A/C`, `A/C/a.txt`. */
function ancestorsAndSelf(relPath: string): string[] {
  const parts = relPath.split('/');
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

/**
 * What the engine says about the transfers of a pass, for progress displays (the CLI's live line
 * today, the desktop UI later). Bytes in flight come separately, through the engine's `onBytes`: this
 * union is the coarse part, how much a pass is about to move and each file that got there. A leaf
 * file, so the engine, its root syncs and the displays share it without importing each other.
 */

/** An amount of work in one direction. */
export interface TransferAmount {
  files: number;
  bytes: number;
}

/** What one root's pass is about to transfer, once it has planned. */
export interface PlannedTransfers {
  /** Uploads: new files and new versions, whole files. */
  send: TransferAmount;
  /** Downloads: every file that lands; bytes count each file version once (copies are local). */
  receive: TransferAmount;
  /**
   * Files still being written (settling): not part of this pass, sent by a later one once they hold
   * still. Counted in the time left, so a large file waiting its turn is not left out of the ETA; a
   * growing file's bytes are its size so far (the ETA then errs short until it settles).
   */
  waiting: TransferAmount;
}

export type TransferEvent =
  /** A root's pass planned these transfers and is about to start them (not sent when it has none). */
  | ({ kind: 'planned'; rootId: string } & PlannedTransfers)
  /** One planned file got there: an upload completed and recorded, a download at its final path. */
  | { kind: 'file-done'; rootId: string; relPath: string; direction: 'send' | 'receive' }
  /** The engine changed the disk other than by a download, once the change is recorded. */
  | ({ kind: 'local-change'; rootId: string } & LocalChange);

/**
 * A change the app made to a synced folder on disk, other than a download landing: a file went to the
 * Trash (`trashed`, relPath where it was: the service removed it, or a conflict was resolved); a file
 * moved (`moved`: the service moved it, or a conflict copy took the file's name back) or a folder
 * the service moved followed it here (`folder-moved`), from `from` to relPath; our version of a file
 * both sides changed was set aside as a conflict copy (`conflict-copy`: relPath the copy, `from` the
 * file's own name, which the service's version then takes).
 */
export type LocalChange =
  | { relPath: string; change: 'trashed' }
  | { relPath: string; change: 'moved' | 'folder-moved' | 'conflict-copy'; from: string };

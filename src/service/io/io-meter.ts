/**
 * What the service's file writes cost, counted where they are made (descriptor-calls.ts, and the
 * directory syncs): durable-write calls (fsync, fdatasync, and writes opened with O_DSYNC) and bytes
 * written to files. Process-wide, like the descriptors it counts; the per-file cost budgets read the
 * difference over a run. Bytes SQLite writes are not here: the statements that cause them are counted
 * through the database's statement hook instead.
 */
export interface IoMeter {
  /** fsync, fdatasync, and O_DSYNC writes. */
  syncs: number;
  /** Bytes written to files through the descriptor calls. */
  bytesWritten: number;
}

export const ioMeter: IoMeter = { syncs: 0, bytesWritten: 0 };

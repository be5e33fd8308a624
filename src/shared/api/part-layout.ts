/**
 * The multipart upload layout rules (API.md §4), shared so the client plans exactly what the service
 * accepts: parts of at least 5 MiB and under 5 GiB except the last, a file under 5 MiB is one part,
 * part numbers 1…10,000.
 */

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;
export const MIN_PART_SIZE = 5 * MIB;
export const MAX_PART_SIZE = 5 * GIB - 1;
export const MAX_PARTS = 10_000;
/** The largest file the layout rules allow: 10,000 parts just under 5 GiB each. */
export const MAX_FILE_SIZE = MAX_PARTS * MAX_PART_SIZE;

export interface PartRange {
  partNumber: number;
  /** inclusive */
  start: number;
  /** exclusive */
  end: number;
}

export type LayoutProblem = { ok: false; reason: string };
export type Layout = { ok: true; partSize: number; partCount: number };

/** The part size the service picks when the client does not: one part up to 16 MiB, else 16 MiB parts (grown to fit 10,000). */
export function defaultPartSize(size: number): number {
  const preferred = 16 * MIB;
  if (size <= preferred) return Math.max(size, 1);
  return Math.max(preferred, Math.ceil(size / MAX_PARTS / MIB) * MIB);
}

/** Checks a declared size and part size against the rules; returns the layout or why it does not add up. */
export function planLayout(size: number, partSize: number | undefined): Layout | LayoutProblem {
  if (!Number.isSafeInteger(size) || size < 0) return { ok: false, reason: `size must be a non-negative integer, got ${size}` };
  if (size > MAX_FILE_SIZE) return { ok: false, reason: `size ${size} exceeds the largest uploadable file (${MAX_FILE_SIZE} bytes)` };
  const chosen = partSize ?? defaultPartSize(size);
  if (!Number.isSafeInteger(chosen) || chosen <= 0) return { ok: false, reason: `partSize must be a positive integer, got ${chosen}` };
  const partCount = Math.max(1, Math.ceil(size / chosen));
  if (partCount === 1) {
    if (size > MAX_PART_SIZE) return { ok: false, reason: 'a file of 5 GiB or more must be uploaded in several parts' };
    return { ok: true, partSize: chosen, partCount };
  }
  if (size < MIN_PART_SIZE) return { ok: false, reason: 'a file under 5 MiB must be uploaded as one part' };
  if (chosen < MIN_PART_SIZE) return { ok: false, reason: `partSize ${chosen} is under the 5 MiB minimum for multipart uploads` };
  if (chosen > MAX_PART_SIZE) return { ok: false, reason: `partSize ${chosen} is not under 5 GiB` };
  if (partCount > MAX_PARTS) return { ok: false, reason: `${partCount} parts exceed the limit of ${MAX_PARTS}; use a larger partSize` };
  return { ok: true, partSize: chosen, partCount };
}

/** The byte range of one part of a layout. */
export function partRange(size: number, partSize: number, partNumber: number): PartRange {
  const start = (partNumber - 1) * partSize;
  return { partNumber, start, end: Math.min(size, start + partSize) };
}

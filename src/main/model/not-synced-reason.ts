/**
 * Which "not synced" reasons the local scanner reports (a file it cannot or must not upload), as
 * opposed to the failures of a transfer. A scanner's report clears when the scanner sees the path fine;
 * a transfer's clears when the file is recorded as synced. Shared by the scan and the state store.
 */

const SCANNER_REASONS: ReadonlySet<string> = new Set(['SYMLINK', 'UNREADABLE', 'SPECIAL_FILE', 'INVALID_NAME', 'TOO_LONG', 'NAME_CLASH']);

/** Whether a "not synced" reason comes from the scanner (it clears when the scanner sees the path fine). */
export function isScannerReason(reason: string): boolean {
  return SCANNER_REASONS.has(reason);
}

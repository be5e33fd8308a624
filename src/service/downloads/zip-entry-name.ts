/**
 * Asset names as zip entry names. An asset name is any single name the service accepts, which may hold
 * characters that a zip reader takes as structure: `\` and `/` (folders, `..\..\x` climbs out of the
 * folder it unpacks to), `:` (a drive, `C:`) or control characters. Each becomes `_`, and a name of dots
 * only gets a leading `_`, so every entry is one plain name inside the zip. Never throws: a name is
 * always made safe, never a reason to fail a job.
 */

/** Characters a zip reader (or the file system it unpacks to) treats as more than part of a name. */
const UNSAFE = new Set(['/', '\\', ':', '*', '?', '"', '<', '>', '|']);

const isUnsafe = (char: string): boolean => UNSAFE.has(char) || char.charCodeAt(0) < 0x20 || char === '\u007f';

export function zipEntryName(name: string): string {
  const plain = Array.from(name, (char) => (isUnsafe(char) ? '_' : char)).join('');
  if (plain === '') return '_';
  return /^\.+$/.test(plain) ? `_${plain}` : plain;
}

/**
 * The one rule for naming partial downloads on disk: a digest of what identifies the content (the
 * file's id or name and its checksum), never the service's strings themselves. No answer can then put a
 * separator or `..` into a local path, and the name is short whatever the file's name (a 255-byte name
 * plus a suffix would not fit). The same identity always gives the same name, so a later run finds the
 * part and resumes it.
 */
import { createHash } from 'node:crypto';

export function partFileName(...identity: readonly string[]): string {
  return `${createHash('sha256').update(identity.join('\n')).digest('hex').slice(0, 40)}.part`;
}

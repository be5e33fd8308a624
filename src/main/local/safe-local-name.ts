/**
 * Maps a name the service returns to one that is legal and safe on this machine's file system:
 * deterministic, idempotent, and the identity for every name this platform can hold and the scanner
 * accepts (otherwise a file would look renamed on every pass). Pure: no disk access. Two remote names
 * may map to one local name ("a/b", "a_b"); the engine's disambiguation (`name (2).ext`) handles that.
 */
import { createHash } from 'node:crypto';
import { MAX_NAME_BYTES } from '../../shared/api/remote-path.js';

// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const ALWAYS_UNSAFE = /[/\u0000-\u001f\u007f]/g;
const WINDOWS_UNSAFE = /[<>:"\\|?*]/g;
/** Device names Windows reserves whatever the extension (`CON.txt` too), compared case-insensitively. */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;
/** An extension kept whole when a long name is shortened. */
const MAX_EXTENSION_BYTES = 32;

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export function safeLocalName(remoteName: string, platform: NodeJS.Platform = process.platform): string {
  const windows = platform === 'win32';
  let name = remoteName.normalize('NFC').replace(ALWAYS_UNSAFE, '_');
  if (windows) {
    name = name.replace(WINDOWS_UNSAFE, '_');
    // Windows drops trailing dots and spaces, so "a." and "a" would be one file.
    name = name.replace(/[. ]+$/, (run) => '_'.repeat(run.length));
    const dot = name.indexOf('.');
    const stem = dot < 0 ? name : name.slice(0, dot);
    if (WINDOWS_RESERVED.test(stem.trimEnd())) name = `${stem}_${dot < 0 ? '' : name.slice(dot)}`;
  }
  if (name === '' || name === '.' || name === '..') name = '_'.repeat(Math.max(1, name.length));
  return utf8Bytes(name) > MAX_NAME_BYTES ? shorten(name, remoteName) : name;
}

/**
 * Fits `name` in 255 bytes: the stem cut at a character boundary, then `~` and a hash of the original
 * name (two long names sharing a prefix stay apart), then the extension.
 */
function shorten(name: string, original: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && utf8Bytes(name.slice(dot)) <= MAX_EXTENSION_BYTES ? name.slice(dot) : '';
  const stem = extension === '' ? name : name.slice(0, dot);
  const tag = `~${createHash('sha256').update(original).digest('hex').slice(0, 8)}`;
  const budget = MAX_NAME_BYTES - utf8Bytes(tag) - utf8Bytes(extension);
  let kept = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(stem)) {
    const bytes = utf8Bytes(segment);
    if (used + bytes > budget) break;
    kept += segment;
    used += bytes;
  }
  return `${kept}${tag}${extension}`;
}

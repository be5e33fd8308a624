/**
 * Which image a browser shows as it is a file's first bytes are: by their magic number (SVG, which has
 * none, by starting as markup). One owner for both sides: the service checks an original preview is what
 * its type says before serving it so, and the app names the type of a preview it serves on.
 */

/** The media types of images browsers display as they are. */
export type WebImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/avif' | 'image/svg+xml';

/** How many first bytes webImageTypeOf needs. */
export const WEB_IMAGE_HEAD_BYTES = 16;

const codes = (text: string): number[] => Array.from(text, (character) => character.charCodeAt(0));
const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0): boolean => bytes.every((byte, index) => head[at + index] === byte);

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GIF = [codes('GIF87a'), codes('GIF89a')];
const RIFF = codes('RIFF');
const WEBP = codes('WEBP');
const FTYP = codes('ftyp');
/** Major brands of AVIF files (an image sequence, or the generic HEIF brands AVIF encoders write). */
const AVIF_BRANDS = ['avif', 'avis', 'mif1', 'msf1'].map(codes);
const BOM = [0xef, 0xbb, 0xbf];

/** The web image type the bytes start as, or undefined (another format, gzip-compressed SVG included). */
export function webImageTypeOf(head: Uint8Array): WebImageType | undefined {
  if (startsWith(head, JPEG)) return 'image/jpeg';
  if (startsWith(head, PNG)) return 'image/png';
  if (GIF.some((magic) => startsWith(head, magic))) return 'image/gif';
  if (startsWith(head, RIFF) && startsWith(head, WEBP, 8)) return 'image/webp';
  if (startsWith(head, FTYP, 4) && AVIF_BRANDS.some((brand) => startsWith(head, brand, 8))) return 'image/avif';
  // Markup: `<` after an optional byte-order mark and white space.
  let at = startsWith(head, BOM) ? 3 : 0;
  while (at < head.length && (head[at] === 0x20 || head[at] === 0x09 || head[at] === 0x0a || head[at] === 0x0d)) at++;
  return head[at] === 0x3c ? 'image/svg+xml' : undefined;
}

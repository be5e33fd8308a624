/**
 * What a stored file is: media type from its first bytes (file-type), falling back to the name's
 * extension (mime), the coarse fileType class, and pixel dimensions of images (sharp reads only headers).
 *
 * Cheap for the common small file: one read brings the whole file in, unless the caller holds its bytes
 * (a small upload kept inline has no file at all). file-type then sniffs the bytes in memory instead of
 * issuing a read per probe, sharp reads them from memory too, and sharp — a thread-pool trip that tries
 * every loader — is skipped when sniffing found nothing and the first bytes could start no format this
 * sharp build loads. A small JPEG, PNG, GIF or WebP in memory is measured by image-size, which reads
 * the same header fields libvips does (PNG's IHDR, JPEG's SOF and EXIF orientation, GIF's screen,
 * WebP's canvas) in about 2 µs where sharp's metadata costs about 0.2 ms of CPU (measured on 4 KiB
 * PNGs): an upload of 10,000 small images spent more on that than on anything else; sharp still
 * answers whatever image-size cannot read. Must never: describe a file differently from sniffing it on
 * disk and asking sharp (fromBuffer over the whole file is fromFile; the sharp gate only drops calls
 * that fail).
 * An SVG whose references would blow up (render-cage/svg-expansion.ts) is never handed to sharp here:
 * sizing one walks every expanded element on the service's own thread pool. It gets no dimensions, and
 * neither does an SVG over 4 MiB (too long to check on the event loop).
 */
import type { FileTypeResult } from 'file-type';
import mime from 'mime';
import { imageSize } from 'image-size';
import { loadSharp } from './load-sharp.js';
import { loadOnce } from '../../shared/load-once.js';
import type { FileType, MediaType } from '../../shared/api/resources.js';
import { readFile } from 'node:fs/promises';
import { readAt, withDescriptor } from '../io/descriptor-calls.js';
import { checkSvgExpansion, mayBeSvg } from '../render-cage/svg-expansion.js';

export interface FileDescription {
  mediaType: MediaType;
  fileType: FileType;
  dimensions: { width: number; height: number } | null;
}

/** Files up to this size are read whole and sniffed in memory. */
const READ_WHOLE_BYTES = 64 * 1024;

const fontTypes = new Set(['font', 'application/font-woff', 'application/vnd.ms-fontobject', 'application/x-font-ttf']);
const documentSubtypes = /^(pdf|msword|rtf|vnd\.|x-iwork|postscript|epub|json|xml|x-indesign|illustrator)/;

export function classify(media: MediaType): FileType {
  const full = `${media.type}/${media.subType}`;
  if (media.type === 'font' || fontTypes.has(full)) return 'FONT';
  if (media.type === 'image') return 'IMAGE';
  if (media.type === 'video') return 'VIDEO';
  if (media.type === 'audio') return 'AUDIO';
  if (media.type === 'text' || (media.type === 'application' && documentSubtypes.test(media.subType))) return 'DOCUMENT';
  return 'OTHER';
}

function splitMediaType(value: string): MediaType {
  const [type = 'application', subType = 'octet-stream'] = value.toLowerCase().split(';')[0]?.trim().split('/') ?? [];
  return { type, subType };
}

/** `contents`: the file's bytes when the caller already holds them (then a small file is not read). */
export async function describeFile(path: string, filename: string, size: number, contents?: Buffer): Promise<FileDescription> {
  const held = contents?.length === size ? contents : undefined;
  const whole = size > 0 && size <= READ_WHOLE_BYTES ? (held ?? (await readWhole(path, size).catch(() => undefined))) : undefined;
  const sniffed = size > 0 ? await sniff(path, whole).catch(() => undefined) : undefined;
  const mediaType = splitMediaType(sniffed?.mime ?? mime.getType(filename) ?? 'application/octet-stream');
  const fileType = classify(mediaType);
  let dimensions: FileDescription['dimensions'] = null;
  if (fileType === 'IMAGE' && size > 0 && (sniffed !== undefined || whole === undefined || mayBeLoadable(whole)) && (sniffed !== undefined || (await svgWithinBound(path, size, whole)))) {
    const metadata =
      (whole !== undefined && sniffed !== undefined ? headerSize(whole, sniffed.mime) : undefined) ??
      (await (await loadSharp())(whole ?? path, { failOn: 'none' }).metadata().catch(() => undefined));
    if (metadata !== undefined) {
      // EXIF orientations 5–8 are rotated by 90°: report what a viewer shows.
      const rotated = (metadata.orientation ?? 1) >= 5;
      dimensions = rotated ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
    }
  }
  return { mediaType, fileType, dimensions };
}

/** sharp's default limitInputPixels (0x3FFF²): an image claiming more is refused, not sized. */
const SHARP_PIXEL_LIMIT = 0x3fff * 0x3fff;

/** PNG's IEND chunk, which ends every whole PNG. */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * Whether a web raster image in memory is whole, by its end (PNG's IEND, JPEG's EOI, GIF's trailer,
 * the RIFF length of a WebP). libvips refuses some cut-off files that still have their header, so only
 * a whole one is sized from its header; sharp answers for the rest.
 */
const ENDS_WHOLE: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (bytes) => bytes.subarray(-PNG_END.length).equals(PNG_END),
  'image/jpeg': (bytes) => bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9,
  'image/gif': (bytes) => bytes.at(-1) === 0x3b,
  'image/webp': (bytes) => bytes.length >= 12 && ((bytes.readUInt32LE(4) + 9) & ~1) === bytes.length,
};

/** Width, height and EXIF orientation from the header of a whole web raster image in memory; undefined when it cannot say. */
function headerSize(bytes: Buffer, mime: string): { width: number; height: number; orientation?: number } | undefined {
  if (ENDS_WHOLE[mime]?.(bytes) !== true) return undefined;
  try {
    const { width, height, orientation } = imageSize(bytes);
    // Past sharp's pixel limit sharp refuses the image (an image bomb): so is its description, by sharp.
    if (!(width > 0 && height > 0) || width * height > SHARP_PIXEL_LIMIT) return undefined;
    return { width, height, ...(orientation === undefined ? {} : { orientation }) };
  } catch {
    return undefined;
  }
}

/** An SVG larger than this is not checked on the service's thread (a linear scan, still ~10 ms a MiB): it gets no dimensions. */
const MAX_SVG_CHECKED_BYTES = 4 * 1024 * 1024;

/** Whether bytes file-type did not recognise are no SVG, or an SVG within the expansion bound. */
async function svgWithinBound(path: string, size: number, whole: Buffer | undefined): Promise<boolean> {
  try {
    const head = whole ?? (await readHead(path));
    if (!mayBeSvg(head)) return true;
    if (size > MAX_SVG_CHECKED_BYTES) return false;
    return checkSvgExpansion(whole ?? (await readFile(path))).ok;
  } catch {
    return false;
  }
}

async function readHead(path: string): Promise<Buffer> {
  const buffer = Buffer.alloc(64);
  const bytesRead = await withDescriptor(path, 'r', (fd) => readAt(fd, buffer, 0));
  return buffer.subarray(0, bytesRead);
}

/** file-type is loaded on first use, as sharp is (load-sharp.ts): a start that describes no file skips it. */
const loadFileType = loadOnce(() => import('file-type'));

async function sniff(path: string, whole: Buffer | undefined): Promise<FileTypeResult | undefined> {
  const { fileTypeFromBuffer, fileTypeFromFile } = await loadFileType();
  return whole === undefined ? fileTypeFromFile(path) : fileTypeFromBuffer(whole);
}

/**
 * Whether libvips might load a file file-type did not recognise, judging by its first bytes: the
 * prefixes its loaders in this sharp build test for (jpeg png gif webp tiff heif vips), or text, which
 * is how an SVG (the one format file-type cannot sniff) starts. Anything else fails in sharp anyway.
 */
export function mayBeLoadable(head: Uint8Array): boolean {
  const starts = (bytes: readonly number[], at = 0): boolean => bytes.every((byte, index) => head[at + index] === byte);
  if (loaderPrefixes.some((prefix) => starts(prefix)) || starts(FTYP, 4)) return true;
  // Text: the first bytes (after a UTF-8 byte-order mark) are printable ASCII or whitespace.
  const text = head.subarray(starts(UTF8_BOM) ? 3 : 0, 24);
  return text.every((byte) => byte >= 0x09 && byte < 0x7f && (byte >= 0x20 || byte <= 0x0d));
}

const bytesOf = (text: string): number[] => Array.from(Buffer.from(text, 'latin1'));
/** First bytes the loaders test for: jpeg, png, gif, webp, tiff (4 byte orders), vips (2). Built once: this runs per upload. */
const loaderPrefixes: readonly (readonly number[])[] = [
  [0xff, 0xd8],
  [0x89, 0x50, 0x4e, 0x47],
  bytesOf('GIF'),
  bytesOf('RIFF'),
  bytesOf('II*\0'),
  bytesOf('MM\0*'),
  bytesOf('II+\0'),
  bytesOf('MM\0+'),
  [0x08, 0xf2, 0xa6, 0xb6],
  [0xb6, 0xa6, 0xf2, 0x08],
];
/** heif/avif: "ftyp" at byte 4. */
const FTYP = bytesOf('ftyp');
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The file's `size` bytes in one read (undefined if it holds fewer). */
async function readWhole(path: string, size: number): Promise<Buffer | undefined> {
  const buffer = Buffer.allocUnsafe(size);
  const bytesRead = await withDescriptor(path, 'r', (fd) => readAt(fd, buffer, 0));
  return bytesRead === size ? buffer : undefined;
}

/**
 * What a stored file's preview is, decided from its AssetFile row alone (no read of its bytes, so the
 * decision costs nothing on the upload path nor per file of a listing):
 *
 * - an image browsers show as it is (JPEG, PNG, GIF, WebP, AVIF, and SVG) whose header the service read
 *   at upload (it has dimensions): the original bytes, served with the file's media type, MD5 equal to
 *   the file's checksum. Nothing is rendered for it unless a sized variant is asked for.
 * - other images sharp reads (TIFF), such an image whose header could not be read (bytes that only
 *   carry the name, an SVG over the expansion bound or too long to check), and documents MuPDF opens:
 *   a web image the service renders in its cage (WebP, at most PREVIEW_SIZE px).
 * - anything else (video, audio, HEIC, PSD, camera raw: no renderer in this build): none.
 *
 * The preview's name says which: `<sha256>.<extension of the original>` for the original,
 * `<sha256>.webp` for the rendition (a WebP original is its own preview). Sized variants
 * (`?size=`) are WebP, at one of VARIANT_SIZES, never larger than asked unless below the smallest.
 */
import { webImageTypeOf, type WebImageType } from '../../shared/api/web-image-type.js';

/** The longer side of a rendered preview, px: also the largest variant. */
export const PREVIEW_SIZE = 1024;

/**
 * The sizes a variant is made at (longer side, px). A bounded set, not any size asked: each size of
 * each file is a render in the cage and a file kept, so at most five per file can ever be made, and
 * a client asking every size from 1 to 1024 gets five renders, not a thousand.
 */
export const VARIANT_SIZES: readonly number[] = [64, 128, 256, 512, PREVIEW_SIZE];

/** The variant size for a `size` asked: the largest of VARIANT_SIZES not above it (the smallest below that). */
export function variantSize(asked: number): number {
  let chosen = VARIANT_SIZES[0] ?? PREVIEW_SIZE;
  for (const size of VARIANT_SIZES) if (size <= asked) chosen = size;
  return chosen;
}

/** What a renderer makes a preview from: an image sharp reads, or a document MuPDF opens. */
export type PreviewKind = 'image' | 'document';

export type PreviewForm =
  /** The file's own bytes, under `extension`, as `contentType`. */
  | { form: 'original'; extension: OriginalExtension; contentType: WebImageType }
  /** A WebP the service renders from the file. */
  | { form: 'rendered'; kind: PreviewKind };

/** The row facts the decision reads. */
export interface PreviewFacts {
  media_type: string;
  media_subtype: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** Images browsers display as they are, by the subtype the service records, with their extension. */
const ORIGINALS = {
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
  'svg+xml': 'svg',
} as const;
export type OriginalExtension = (typeof ORIGINALS)[keyof typeof ORIGINALS];

const CONTENT_TYPES: Readonly<Record<OriginalExtension, WebImageType>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** Other images sharp reads in this build: rendered. */
const RENDERED_IMAGES = new Set(['tiff']);
/** Media types MuPDF opens, by the subtype the service records (media/describe-file.ts). */
const DOCUMENTS = new Set(['pdf', 'oxps', 'vnd.ms-xpsdocument', 'epub+zip', 'vnd.comicbook+zip', 'x-cbz', 'x-fictionbook+xml', 'x-mobipocket-ebook']);

function isOriginal(subtype: string): subtype is keyof typeof ORIGINALS {
  return Object.hasOwn(ORIGINALS, subtype);
}

export function previewFormOf(file: PreviewFacts): PreviewForm | undefined {
  if (file.size === 0) return undefined;
  if (file.media_type === 'image' && isOriginal(file.media_subtype)) {
    if (file.width === null || file.height === null) return { form: 'rendered', kind: 'image' };
    const extension = ORIGINALS[file.media_subtype];
    return { form: 'original', extension, contentType: CONTENT_TYPES[extension] };
  }
  if (file.media_type === 'image' && RENDERED_IMAGES.has(file.media_subtype)) return { form: 'rendered', kind: 'image' };
  if (file.media_type === 'application' && DOCUMENTS.has(file.media_subtype)) return { form: 'rendered', kind: 'document' };
  return undefined;
}

/** The preview's name under /previews/. */
export function previewName(sha256: string, form: PreviewForm): string {
  return `${sha256}.${form.form === 'original' ? form.extension : 'webp'}`;
}

/** The extensions a preview name may end in. */
export const PREVIEW_EXTENSIONS: readonly string[] = [...new Set([...Object.values(ORIGINALS), 'webp'])];

/**
 * Whether the first bytes of a file (WEB_IMAGE_HEAD_BYTES of them) are what its extension says. The row's
 * media type comes from sniffing, else from the name: bytes libvips reads but sniffing does not know
 * (a PPM, an SVG named .png) would otherwise be served as what their name claims. SVG has no magic
 * number: markup passes, and it is served under a sandbox policy anyway.
 */
export function looksLike(extension: OriginalExtension, head: Uint8Array): boolean {
  return webImageTypeOf(head) === CONTENT_TYPES[extension];
}

/**
 * Renders a web-sized preview (WEBP, at most PREVIEW_SIZE px on its longer side, never enlarged) of a
 * stored file: raster images and SVG through sharp (turned upright first), and the first page of the
 * documents MuPDF opens (PDF, XPS, EPUB, CBZ, FB2, MOBI) through the `mupdf` WASM build, on the
 * DocumentRenderer's worker thread (a large page must not block the event loop). Anything else has no
 * preview (`previewUrl: null`). Runs in a render process of the cage (render-cage/), never in the
 * service's own.
 */
import type { Sharp } from 'sharp';
import { loadSharp } from '../media/load-sharp.js';
import type { BlobSource } from '../blobs/blob-store.js';
import type { DocumentRenderer } from './document-renderer.js';

export const PREVIEW_SIZE = 1024;

const IMAGE_SUBTYPES = new Set(['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg+xml']);
/** Media types MuPDF opens, by the subtype the service records (describe-file.ts). */
const DOCUMENT_SUBTYPES = new Set(['pdf', 'oxps', 'vnd.ms-xpsdocument', 'epub+zip', 'vnd.comicbook+zip', 'x-cbz', 'x-fictionbook+xml', 'x-mobipocket-ebook']);

export type PreviewKind = 'image' | 'document';

export function previewKind(file: { media_type: string; media_subtype: string; size: number }): PreviewKind | undefined {
  if (file.size === 0) return undefined;
  if (file.media_type === 'image' && IMAGE_SUBTYPES.has(file.media_subtype)) return 'image';
  if (file.media_type === 'application' && DOCUMENT_SUBTYPES.has(file.media_subtype)) return 'document';
  return undefined;
}

const webp = (image: Sharp): Sharp => image.resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 });

/** Renders the preview into `target`; rejects when the bytes cannot be rendered. */
export async function renderPreview(kind: PreviewKind, source: BlobSource, mediaType: string, target: string, documents: DocumentRenderer): Promise<void> {
  const sharp = await loadSharp();
  if (kind === 'image') {
    const input = 'bytes' in source ? source.bytes : source.path;
    await webp(sharp(input, { failOn: 'none', density: mediaType === 'image/svg+xml' ? 144 : undefined }).rotate()).toFile(target);
    return;
  }
  const page = await documents.render(source, mediaType, PREVIEW_SIZE);
  await webp(sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 3 } })).toFile(target);
}

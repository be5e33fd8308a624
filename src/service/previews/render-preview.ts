/**
 * Renders a web-sized preview (WEBP, at most PREVIEW_SIZE px on its longer side, never enlarged) of a
 * stored file: raster images and SVG through sharp (turned upright first), and the first page of the
 * documents MuPDF opens (PDF, XPS, EPUB, CBZ, FB2, MOBI) through the `mupdf` WASM build, loaded on
 * first use. Anything else has no preview (`previewUrl: null`).
 */
import { readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import type { BlobSource } from '../blobs/blob-store.js';

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
export async function renderPreview(kind: PreviewKind, source: BlobSource, mediaType: string, target: string): Promise<void> {
  if (kind === 'image') {
    const input = 'bytes' in source ? source.bytes : source.path;
    await webp(sharp(input, { failOn: 'none', density: mediaType === 'image/svg+xml' ? 144 : undefined }).rotate()).toFile(target);
    return;
  }
  const bytes = 'bytes' in source ? source.bytes : await readFile(source.path);
  const page = await renderFirstPage(bytes, mediaType);
  await webp(sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 3 } })).toFile(target);
}

/** The first page as RGB pixels, scaled so its longer side is PREVIEW_SIZE px. */
export async function renderFirstPage(bytes: Uint8Array, mediaType: string): Promise<{ pixels: Buffer; width: number; height: number }> {
  const mupdf = await import('mupdf');
  const document = mupdf.Document.openDocument(bytes, mediaType);
  try {
    if (document.countPages() === 0) throw new Error('the document has no pages');
    const page = document.loadPage(0);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const scale = PREVIEW_SIZE / Math.max(1, x1 - x0, y1 - y0);
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
      try {
        const width = pixmap.getWidth();
        const height = pixmap.getHeight();
        const stride = pixmap.getStride();
        const source = pixmap.getPixels();
        // Rows may be padded: copy them out tightly, and out of the WASM heap.
        const pixels = Buffer.alloc(width * height * 3);
        for (let row = 0; row < height; row++) pixels.set(source.subarray(row * stride, row * stride + width * 3), row * width * 3);
        return { pixels, width, height };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  } finally {
    document.destroy();
  }
}

/**
 * Renders a web-sized preview (WEBP, at most `size` px on its longer side, never enlarged) of a
 * stored file or of a preview made before: raster images and SVG through sharp (turned upright first),
 * and the first page of the documents MuPDF opens (PDF, XPS, EPUB, CBZ, FB2, MOBI) through the `mupdf`
 * WASM build, on the DocumentRenderer's worker thread (a large page must not block the event loop).
 * Which files get which preview is preview-form.ts's call. Runs in a render process of the cage
 * (render-cage/), never in the service's own.
 */
import type { Sharp } from 'sharp';
import { loadSharp } from '../media/load-sharp.js';
import type { BlobSource } from '../blobs/blob-store.js';
import type { DocumentRenderer } from './document-renderer.js';
import { PREVIEW_SIZE, type PreviewKind } from './preview-form.js';

const webp = (image: Sharp, size: number): Sharp => image.resize(size, size, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 });

/** Renders the preview into `target`; rejects when the bytes cannot be rendered. */
export async function renderPreview(kind: PreviewKind, source: BlobSource, mediaType: string, target: string, documents: DocumentRenderer, size = PREVIEW_SIZE): Promise<void> {
  const sharp = await loadSharp();
  if (kind === 'image') {
    const input = 'bytes' in source ? source.bytes : source.path;
    await webp(sharp(input, { failOn: 'none', density: mediaType === 'image/svg+xml' ? 144 : undefined }).rotate(), size).toFile(target);
    return;
  }
  const page = await documents.render(source, mediaType, size);
  await webp(sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 3 } }), size).toFile(target);
}

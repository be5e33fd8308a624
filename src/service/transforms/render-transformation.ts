/**
 * Applies resolved operations to an image with sharp, in the order given, file to file (the input is
 * read by libvips, the output written to `target`; only a pipeline that needs a second resize or crop
 * after a resize keeps an intermediate raw image in memory). The image is turned upright first (EXIF
 * orientation), so boxes and sizes are in the pixels a viewer shows. Without a CONVERT the output keeps
 * the input's format where sharp writes it (an SVG becomes a PNG).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Sharp } from 'sharp';
import { loadSharp } from '../media/load-sharp.js';
import type { BlobSource } from '../blobs/blob-store.js';
import type { ResolvedOperation } from './plan-transformation.js';
import type { OutputFormat } from './transformation-schema.js';

export interface RenderedFile {
  extension: string;
  contentType: string;
  size: number;
}

const outputs: Record<OutputFormat, { extension: string; contentType: string }> = {
  JPG: { extension: 'jpg', contentType: 'image/jpeg' },
  PNG: { extension: 'png', contentType: 'image/png' },
  WEBP: { extension: 'webp', contentType: 'image/webp' },
  AVIF: { extension: 'avif', contentType: 'image/avif' },
  TIFF: { extension: 'tiff', contentType: 'image/tiff' },
};

/** The format a file comes out in when no CONVERT says otherwise. */
const keptFormat: Record<string, OutputFormat | undefined> = { jpeg: 'JPG', png: 'PNG', webp: 'WEBP', avif: 'AVIF', tiff: 'TIFF' };

export function outputOf(operations: readonly ResolvedOperation[], inputSubtype: string): { format: OutputFormat; quality: number | null; extension: string; contentType: string } {
  let format = keptFormat[inputSubtype] ?? 'PNG';
  let quality: number | null = null;
  for (const operation of operations) {
    if (operation.type === 'CONVERT') {
      format = operation.format;
      quality = operation.quality;
    }
  }
  return { format, quality, ...outputs[format] };
}

/** A geometry pipeline sharp runs in one pass: crop, resize, crop (in that order, each at most once). */
interface Stage {
  before?: ResolvedOperation & { type: 'CROP' };
  resize?: ResolvedOperation & { type: 'RESIZE' };
  after?: ResolvedOperation & { type: 'CROP' };
}

function stagesOf(operations: readonly ResolvedOperation[]): Stage[] {
  const stages: Stage[] = [{}];
  for (const operation of operations) {
    let stage = stages[stages.length - 1] ?? {};
    if (operation.type === 'CONVERT') continue;
    if (operation.type === 'RESIZE') {
      if (stage.resize !== undefined || stage.after !== undefined) stages.push((stage = {}));
      stage.resize = operation;
    } else if (stage.resize === undefined && stage.before === undefined) {
      stage.before = operation;
    } else if (stage.resize !== undefined && stage.after === undefined) {
      stage.after = operation;
    } else {
      stages.push({ before: operation });
    }
  }
  return stages;
}

function applyStage(image: Sharp, stage: Stage): Sharp {
  const extract = (crop: Stage['before']) => (crop === undefined ? image : image.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height }));
  image = extract(stage.before);
  if (stage.resize !== undefined) {
    const { width, height, fit, enlarge } = stage.resize;
    const both = width !== null && height !== null;
    image = image.resize(width ?? undefined, height ?? undefined, {
      fit: fit === 'COVER' ? 'cover' : fit === 'FILL' && both ? 'fill' : 'inside',
      // A rendition never blows a small image up unless its operation says so (`enlarge`).
      withoutEnlargement: !enlarge,
    });
  }
  return extract(stage.after);
}

function encode(image: Sharp, format: OutputFormat, quality: number | null): Sharp {
  const q = quality ?? undefined;
  switch (format) {
    case 'JPG':
      return image.flatten({ background: '#ffffff' }).jpeg({ quality: q ?? 82 });
    case 'PNG':
      return image.png();
    case 'WEBP':
      return image.webp({ quality: q ?? 80 });
    case 'AVIF':
      return image.avif({ quality: q ?? 55 });
    case 'TIFF':
      return image.tiff({ quality: q ?? 90, compression: q === undefined ? 'lzw' : 'jpeg' });
  }
}

export type RenderTransformation = (source: BlobSource, operations: readonly ResolvedOperation[], inputSubtype: string, target: string) => Promise<RenderedFile>;

/** The longer side a PDF page is rendered at: what its largest resize asks (so a resize only shrinks), else print size. */
export function pageSize(operations: readonly ResolvedOperation[]): number {
  const asked = operations.flatMap((operation) => (operation.type === 'RESIZE' ? [operation.width ?? 0, operation.height ?? 0] : []));
  return Math.min(PAGE_MAX, Math.max(PAGE_MIN, ...asked, asked.length === 0 ? PAGE_DEFAULT : 0));
}

const PAGE_MIN = 64;
const PAGE_DEFAULT = 2000;
const PAGE_MAX = 6000;

/** Renders a PDF's first page to pixels (the service's DocumentRenderer, off the event loop). */
export type RenderPage = (source: BlobSource, mediaType: string, size: number) => Promise<{ pixels: Buffer; width: number; height: number }>;

/**
 * Renders the source through the operations into `target`; rejects when the bytes do not allow it. A
 * PDF goes in as its first page, rendered by `renderPage` at `pageSize`.
 */
export async function renderTransformation(source: BlobSource, operations: readonly ResolvedOperation[], inputSubtype: string, target: string, renderPage?: RenderPage): Promise<RenderedFile> {
  const output = outputOf(operations, inputSubtype);
  const stages = stagesOf(operations);
  const sharp = await loadSharp();
  let image: Sharp;
  if (inputSubtype === 'pdf') {
    if (renderPage === undefined) throw new Error('this service renders no document pages');
    const page = await renderPage(source, 'application/pdf', pageSize(operations));
    image = sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 3 } });
  } else {
    image = sharp('bytes' in source ? source.bytes : source.path, { failOn: 'error', density: inputSubtype === 'svg+xml' ? 144 : undefined }).rotate();
  }
  for (const [index, stage] of stages.entries()) {
    image = applyStage(image, stage);
    if (index < stages.length - 1) {
      const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
      image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    }
  }
  const info = await encode(image, output.format, output.quality).toFile(target);
  return { extension: output.extension, contentType: output.contentType, size: info.size };
}

/**
 * MD5 hex of a file of `size` bytes (as AssetFile checksums). Each read's buffer is bounded by the
 * bytes left: an unbounded stream allocates its whole 1 MiB highWaterMark for every read, the last one
 * (which finds the end) included, so a 200 KB rendition cost 2 MiB of Buffers. Buffers count as V8's
 * external memory, and every 64 MiB of it starts a full mark-compact of the service's heap (~200 ms
 * of main-thread CPU on the transform bench's 90 MB heap, one per ~25 renditions).
 */
export async function md5Of(path: string, size: number): Promise<string> {
  const hash = createHash('md5');
  if (size > 0) {
    for await (const chunk of createReadStream(path, { end: size - 1, highWaterMark: Math.min(size, 1 << 20) })) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

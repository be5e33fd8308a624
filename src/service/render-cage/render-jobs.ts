/**
 * What the render cage's processes do, and the messages they exchange with the service. A job is a
 * preview or a download transformation of one stored file, written to a temporary file the service
 * then renames into place (renamePrivate, so it is 0600 there), or an image's facts for metadata
 * suggestions (embedded metadata blocks, dominant colour: sharp's stats() decodes the whole image). Runs inside a render process only
 * (render-process.ts): sharp and MuPDF never run in the service's own process for a user's file.
 * Before anything reads an image, bytes libvips would take for an SVG are checked against the
 * expansion bound (svg-expansion.ts).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { loadSharp } from '../media/load-sharp.js';
import type { BlobSource } from '../blobs/blob-store.js';
import type { DocumentRenderer } from '../previews/document-renderer.js';
import type { PreviewKind } from '../previews/preview-form.js';
import { renderPreview } from '../previews/render-preview.js';
import type { ResolvedOperation } from '../transforms/plan-transformation.js';
import { renderTransformation, type RenderedFile } from '../transforms/render-transformation.js';
import { checkSvgExpansion, mayBeSvg } from './svg-expansion.js';

export type RenderJob =
  /** `size`: the longer side, px (a sized variant's, else PREVIEW_SIZE). */
  | { kind: 'preview'; previewKind: PreviewKind; source: BlobSource; mediaType: string; target: string; size?: number }
  | { kind: 'transform'; source: BlobSource; operations: readonly ResolvedOperation[]; inputSubtype: string; target: string }
  | { kind: 'facts'; source: BlobSource };

/** What an image says of itself for metadata suggestions: its embedded metadata blocks and its dominant colour. */
export interface ImageFacts {
  xmp?: Uint8Array | undefined;
  iptc?: Uint8Array | undefined;
  exif?: Uint8Array | undefined;
  dominant: { r: number; g: number; b: number };
}

/** What a finished job answers: a transformation's output facts, an image's facts; a preview's file is enough. */
export type RenderOutput = RenderedFile | ImageFacts | null;

/** The answer of each kind of job. */
export type OutputOf<J extends RenderJob> = J extends { kind: 'transform' } ? RenderedFile : J extends { kind: 'facts' } ? ImageFacts : null;

/**
 * Why a render gave up. The cage kills a process over a limit (`TIME_LIMIT`, `MEMORY_LIMIT`) or sees
 * it die while rendering (`CRASHED`); the process refuses an SVG over the bound (`SVG_TOO_COMPLEX`) and
 * answers bytes no renderer reads (`UNREADABLE`). `UNAVAILABLE` says nothing of the file: the service
 * is closing, or no render process could start; a later try may succeed.
 */
export type RenderFailureReason = 'SVG_TOO_COMPLEX' | 'TIME_LIMIT' | 'MEMORY_LIMIT' | 'CRASHED' | 'UNREADABLE' | 'UNAVAILABLE';

export class RenderFailure extends Error {
  override readonly name = 'RenderFailure';
  constructor(
    readonly reason: RenderFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** Service → process. */
export type ToRenderer = { type: 'job'; id: number; job: RenderJob };

/** Process → service: ready once sharp is loaded; a busy process reports its usage every sample. */
export type FromRenderer =
  | { type: 'ready' }
  | { type: 'usage'; id: number; cpuMicros: number; /** The process's peak resident memory so far. */ rssBytes: number }
  | { type: 'done'; id: number; output: RenderOutput }
  | { type: 'failed'; id: number; reason: RenderFailureReason; message: string };

/** The first bytes of the job's input, and all of them when they may be an SVG. */
function svgTextOf(source: BlobSource): Uint8Array | undefined {
  if ('bytes' in source) return mayBeSvg(source.bytes.subarray(0, 64)) ? source.bytes : undefined;
  const head = Buffer.alloc(64);
  const fd = openSync(source.path, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    return mayBeSvg(head.subarray(0, read)) ? readFileSync(source.path) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Refuses an input libvips would draw as an SVG whose references blow up. Documents go to MuPDF, not here. */
function refuseComplexSvg(source: BlobSource): void {
  const text = svgTextOf(source);
  if (text === undefined) return;
  const verdict = checkSvgExpansion(text);
  if (!verdict.ok) throw new RenderFailure('SVG_TOO_COMPLEX', verdict.message);
}

/** Runs one job in this (render) process. */
export async function runRenderJob(job: RenderJob, documents: DocumentRenderer): Promise<RenderOutput> {
  const isDocument = job.kind === 'preview' ? job.previewKind === 'document' : job.kind === 'transform' && job.inputSubtype === 'pdf';
  if (!isDocument) refuseComplexSvg(job.source);
  try {
    if (job.kind === 'facts') {
      const input = 'bytes' in job.source ? job.source.bytes : job.source.path;
      const sharp = await loadSharp();
      const { xmp, iptc, exif } = await sharp(input).metadata();
      const { dominant } = await sharp(input).stats();
      return { xmp, iptc, exif, dominant };
    }
    if (job.kind === 'preview') {
      await renderPreview(job.previewKind, job.source, job.mediaType, job.target, documents, job.size);
      return null;
    }
    return await renderTransformation(job.source, job.operations, job.inputSubtype, job.target, (page, type, size) => documents.render(page, type, size));
  } catch (error) {
    throw new RenderFailure('UNREADABLE', `The file could not be read as ${isDocument ? 'a document' : 'an image'}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Which operations a download applies to one file (pure): the candidates whose criteria the file meets
 * and whose every operation can apply to it, in order, with saved crop areas resolved to boxes. The
 * caller tries them in that order (one may still fail on the actual bytes) and hands the original file
 * over when none is left: a transformation that does not apply (a resize of a PDF) is never an error.
 */
import type { CandidateTransformation, Criteria, Operation, OutputFormat } from './transformation-schema.js';

/** What the planner needs to know of a file. */
export interface FileFacts {
  assetId: string;
  fileType: string;
  mediaSubtype: string;
  width: number | null;
  height: number | null;
}

export type ResolvedOperation =
  | { type: 'RESIZE'; width: number | null; height: number | null; fit: 'INSIDE' | 'COVER' | 'FILL'; enlarge: boolean }
  | { type: 'CROP'; x: number; y: number; width: number; height: number }
  | { type: 'CONVERT'; format: OutputFormat; quality: number | null };

export interface CropBox {
  assetId: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Media subtypes of images sharp decodes in this build (SVG is rasterised). */
const RASTER_INPUTS = new Set(['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif', 'svg+xml']);

export function isTransformableImage(file: Pick<FileFacts, 'fileType' | 'mediaSubtype'>): boolean {
  return file.fileType === 'IMAGE' && RASTER_INPUTS.has(file.mediaSubtype);
}

export function meetsCriteria(file: FileFacts, criteria: Criteria | null | undefined): boolean {
  if (criteria === null || criteria === undefined) return true;
  switch (criteria.type) {
    case 'MATCH_ALL':
      return true;
    case 'FILE_TYPE_IN':
      return criteria.fileTypes.some((type) => type === file.fileType);
    case 'MEDIA_SUBTYPE_IN':
      return criteria.subTypes.some((subType) => subType.toLowerCase() === file.mediaSubtype);
  }
}

/** The operations resolved for this file, or undefined when one of them cannot apply to it. */
export function resolveOperations(file: FileFacts, operations: readonly Operation[], cropArea: (id: string) => CropBox | undefined): ResolvedOperation[] | undefined {
  if (operations.length === 0) return [];
  if (!isTransformableImage(file)) return undefined;
  const resolved: ResolvedOperation[] = [];
  for (const operation of operations) {
    switch (operation.type) {
      case 'RESIZE':
        resolved.push({ type: 'RESIZE', width: operation.width ?? null, height: operation.height ?? null, fit: operation.fit ?? 'INSIDE', enlarge: operation.enlarge === true });
        break;
      case 'CONVERT':
        resolved.push({ type: 'CONVERT', format: operation.format, quality: operation.quality ?? null });
        break;
      case 'CROP': {
        const box = 'savedCropAreaId' in operation ? cropArea(operation.savedCropAreaId) : operation;
        // A saved crop area is drawn on one asset; on another it means nothing.
        if (box === undefined || ('assetId' in box && box.assetId !== file.assetId)) return undefined;
        resolved.push({ type: 'CROP', x: box.x, y: box.y, width: box.width, height: box.height });
        break;
      }
    }
  }
  return resolved;
}

/**
 * Every candidate that applies to the file, in order, as resolved operation lists. An empty list
 * means "the original": candidates after it are never reached, so the plan stops there.
 */
export function planTransformation(file: FileFacts, candidates: readonly CandidateTransformation[], cropArea: (id: string) => CropBox | undefined): ResolvedOperation[][] {
  const plans: ResolvedOperation[][] = [];
  for (const candidate of candidates) {
    if (!meetsCriteria(file, candidate.criteria)) continue;
    const resolved = resolveOperations(file, candidate.transformation.operations, cropArea);
    if (resolved === undefined) continue;
    plans.push(resolved);
    if (resolved.length === 0) break;
  }
  return plans;
}

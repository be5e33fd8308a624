/**
 * The transformation description of a download batch job (SERVICE-SPEC.md §2.8, API.md §6) as request
 * schemas: CUSTOM candidates (criteria + an ordered list of operations) or a PRESET by id. Validated
 * whole when the job is created, so a malformed description is a 400 at once, never a failed job.
 */
import { z } from 'zod';

const dimension = z.number().int().min(1).max(20_000);

export const resizeOperation = z
  .object({
    type: z.literal('RESIZE'),
    width: dimension.nullish(),
    height: dimension.nullish(),
    fit: z.enum(['INSIDE', 'COVER', 'FILL']).nullish(),
    /** [ours] Whether a smaller image may be blown up to the size; never unless a preset says so. */
    enlarge: z.boolean().nullish(),
  })
  .refine((operation) => operation.width != null || operation.height != null, { message: 'a RESIZE needs a width, a height or both' });

export const cropOperation = z.union([
  z.object({
    type: z.literal('CROP'),
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    width: dimension,
    height: dimension,
  }),
  z.object({ type: z.literal('CROP'), savedCropAreaId: z.string().min(1).max(200) }),
]);

export const OUTPUT_FORMATS = ['JPG', 'PNG', 'WEBP', 'AVIF', 'TIFF'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const convertOperation = z.object({
  type: z.literal('CONVERT'),
  format: z.enum(OUTPUT_FORMATS),
  quality: z.number().int().min(1).max(100).nullish(),
});

export const operation = z.union([resizeOperation, cropOperation, convertOperation]);
export type Operation = z.infer<typeof operation>;
export const TRANSFORMATION_TYPES = ['RESIZE', 'CROP', 'CONVERT'] as const;

export const criteria = z.union([
  z.object({ type: z.literal('MATCH_ALL') }),
  z.object({ type: z.literal('FILE_TYPE_IN'), fileTypes: z.array(z.enum(['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'FONT', 'OTHER'])).min(1) }),
  z.object({ type: z.literal('MEDIA_SUBTYPE_IN'), subTypes: z.array(z.string().min(1).max(200)).min(1) }),
]);
export type Criteria = z.infer<typeof criteria>;

export const candidateTransformation = z.object({
  criteria: criteria.nullish(),
  transformation: z.object({ operations: z.array(operation).max(20) }),
});
export type CandidateTransformation = z.infer<typeof candidateTransformation>;

export const candidateList = z.array(candidateTransformation).min(1).max(20);

export const transformationDescription = z.union([
  z.object({ type: z.literal('CUSTOM'), candidateTransformations: candidateList }),
  z.object({ type: z.literal('PRESET'), presetTransformationId: z.string().min(1).max(200) }),
]);
export type TransformationDescription = z.infer<typeof transformationDescription>;

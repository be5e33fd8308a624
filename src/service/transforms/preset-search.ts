/**
 * The preset search language (SERVICE-SPEC.md §2.6): MATCH_ALL, and AND / OR / NOT over `APPLICABLE_FOR_ANY_ASSETS`
 * (a preset that would transform the current file of at least one of the assets, rather than hand it
 * over as it is), `HAS_TRANSFORMATION_OF_TYPE` (RESIZE, CROP or CONVERT; a RESIZE that covers a box
 * crops, so it counts as a CROP too) and `FIELD_EQUALS` on ID, NAME or GROUP_ID. An installation has a
 * handful of presets, so they are filtered in memory rather than compiled to SQL.
 */
import { z } from 'zod';
import { requiredByHandler } from '../http/null-as-absent.js';
import { withinCriterionLimits } from '../search/criterion-limits.js';
import { planTransformation, type CropBox, type FileFacts } from './plan-transformation.js';
import { TRANSFORMATION_TYPES, type CandidateTransformation } from './transformation-schema.js';

export type PresetCriterion =
  | { type: 'MATCH_ALL' }
  | { type: 'AND' | 'OR'; criteria: PresetCriterion[] }
  | { type: 'NOT'; criterion: PresetCriterion }
  | { type: 'APPLICABLE_FOR_ANY_ASSETS'; assetIds: string[] }
  | { type: 'HAS_TRANSFORMATION_OF_TYPE'; transformationType: (typeof TRANSFORMATION_TYPES)[number] }
  | { type: 'FIELD_EQUALS'; field: 'ID' | 'NAME' | 'GROUP_ID'; value: string };

export const presetCriterion: z.ZodType<PresetCriterion> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('MATCH_ALL') }),
    z.object({ type: z.enum(['AND', 'OR']), criteria: z.array(presetCriterion).max(50) }),
    z.object({ type: z.literal('NOT'), criterion: presetCriterion }),
    z.object({ type: z.literal('APPLICABLE_FOR_ANY_ASSETS'), assetIds: z.array(z.string().min(1).max(200)).max(10_000) }),
    z.object({ type: z.literal('HAS_TRANSFORMATION_OF_TYPE'), transformationType: z.enum(TRANSFORMATION_TYPES) }),
    z.object({ type: z.literal('FIELD_EQUALS'), field: z.enum(['ID', 'NAME', 'GROUP_ID']), value: z.string().max(500) }),
  ]),
);

/** `criterion` and `sorts` are required [real] (API.md §1); the route reports them missing, null or absent alike. */
export const presetSearchBody = z.object({
  from: z.number().int().min(0).optional(),
  pageSize: z.number().int().min(1).max(1000).optional(),
  criterion: requiredByHandler(withinCriterionLimits(presetCriterion)),
  sorts: requiredByHandler(z.array(z.object({ field: z.enum(['NAME', 'POSITION']), order: z.enum(['ASC', 'DESC']).optional() })).max(2)),
});

/** What a criterion needs to know of a preset and of the world. */
export interface PresetFacts {
  id: string;
  name: string;
  groupId: string | null;
  candidates: readonly CandidateTransformation[];
}

export interface AssetLookup {
  /** The current file of an asset the caller can see. */
  facts(assetId: string): FileFacts | undefined;
  cropArea(id: string): CropBox | undefined;
}

/** Whether the preset would transform this file (not merely hand the original over). */
export function transformsFile(candidates: readonly CandidateTransformation[], file: FileFacts, cropArea: (id: string) => CropBox | undefined): boolean {
  const first = planTransformation(file, candidates, cropArea)[0];
  return first !== undefined && first.length > 0;
}

function hasType(candidates: readonly CandidateTransformation[], type: PresetCriterion & { type: 'HAS_TRANSFORMATION_OF_TYPE' }): boolean {
  return candidates.some(({ transformation }) =>
    transformation.operations.some(
      (operation) =>
        operation.type === type.transformationType ||
        (type.transformationType === 'CROP' && operation.type === 'RESIZE' && operation.fit === 'COVER' && operation.width != null && operation.height != null),
    ),
  );
}

export function matchesPreset(criterion: PresetCriterion, preset: PresetFacts, lookup: AssetLookup): boolean {
  switch (criterion.type) {
    case 'MATCH_ALL':
      return true;
    case 'AND':
      return criterion.criteria.every((inner) => matchesPreset(inner, preset, lookup));
    case 'OR':
      return criterion.criteria.some((inner) => matchesPreset(inner, preset, lookup));
    case 'NOT':
      return !matchesPreset(criterion.criterion, preset, lookup);
    case 'APPLICABLE_FOR_ANY_ASSETS':
      return criterion.assetIds.some((assetId) => {
        const file = lookup.facts(assetId);
        return file !== undefined && transformsFile(preset.candidates, file, (id) => lookup.cropArea(id));
      });
    case 'HAS_TRANSFORMATION_OF_TYPE':
      return hasType(preset.candidates, criterion);
    case 'FIELD_EQUALS': {
      const value = criterion.field === 'ID' ? preset.id : criterion.field === 'NAME' ? preset.name : preset.groupId;
      return criterion.field === 'NAME' ? value?.toLowerCase() === criterion.value.toLowerCase() : value === criterion.value;
    }
  }
}

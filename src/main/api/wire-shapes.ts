/**
 * Checks and normalises the service's answers into the shared wire types (src/shared/api/resources.ts),
 * tolerantly: unknown properties are dropped, missing optional ones get their documented default,
 * documented variants are accepted (`parent` wrapped as `{result}`, bare or enveloped search items and
 * job results). What the engine relies on (ids, names, sizes, checksums, states) must be there and of
 * the right type, or the answer is an INVALID_RESPONSE: guessing there could lose data.
 */
import { z } from 'zod';
import type {
  Asset,
  AssetFile,
  AssetUpload,
  DownloadItem,
  DownloadZip,
  PresetTransformation,
  Envelope,
  Field,
  FieldOption,
  PermittedAction,
  SearchPage,
  UploadJobSuccess,
  User,
} from '../../shared/api/resources.js';
import { partRange } from '../../shared/api/part-layout.js';
import { invalidResponse } from './api-error.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ result: X, … }` → X; anything else as it is. */
export function unwrapResult(value: unknown): unknown {
  return isRecord(value) && 'result' in value ? value.result : value;
}

const nullableText = z.string().nullable().default(null);

export const permittedActionSchema: z.ZodType<PermittedAction> = z.object({
  resourceType: z.string().default(''),
  resourceId: nullableText,
  action: z.string(),
});

export const userSchema: z.ZodType<User> = z.object({
  id: z.string(),
  email: z.string().default(''),
  name: z.string().nullish(),
  accountId: z.string().default(''),
});

export const fieldSchema: z.ZodType<Field> = z.object({
  id: z.string(),
  name: z.string(),
  hasFixedOptions: z.boolean().default(false),
  hierarchical: z.boolean().default(false),
  multiValue: z.boolean().default(false),
  indestructable: z.boolean().default(false),
});

export const fieldOptionSchema: z.ZodType<FieldOption> = z.lazy(() =>
  z
    .object({
      id: z.string(),
      fieldId: z.string(),
      value: z.string(),
      position: z.number().default(0),
      leaf: z.boolean().optional(),
      numberOfChildren: z.number().optional(),
      parent: z.preprocess(unwrapResult, fieldOptionSchema.nullish()),
    })
    .transform((option) => ({
      id: option.id,
      fieldId: option.fieldId,
      value: option.value,
      position: option.position,
      numberOfChildren: option.numberOfChildren ?? 0,
      // A leaf only when the service says so and counts no children: a walk skips a leaf's children
      // search, so a server silent on both (or contradicting itself) is searched as before.
      leaf: option.leaf === true && option.numberOfChildren === 0,
      parent: option.parent ?? null,
    })),
);

const FILE_TYPES = ['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'FONT', 'OTHER'] as const;
const LIFECYCLE_STATES = ['STAGED', 'PENDING_APPROVAL', 'LIVE', 'BINNED'] as const;

export const assetFileSchema: z.ZodType<AssetFile> = z.object({
  id: z.string(),
  assetId: z.string().default(''),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  checksum: z.string(),
  sha256: z.string().optional(),
  mediaType: z.object({ type: z.string(), subType: z.string() }).default({ type: 'application', subType: 'octet-stream' }),
  fileType: z.enum(FILE_TYPES).catch('OTHER'),
  dimensions: z.object({ width: z.number(), height: z.number() }).nullable().default(null),
  dateAdded: z.string().default(''),
  addedBy: nullableText,
  previewUrl: z.string().nullish(),
  // [ours]: its presence says the service honours `?size=` on previewUrl (app/thumbnail-url.ts).
  previewState: z.enum(['AVAILABLE', 'FAILED', 'NONE']).optional().catch(undefined),
});

export const assetSchema: z.ZodType<Asset> = z
  .object({
    id: z.string(),
    accountId: z.string().default(''),
    metadata: z.object({ values: z.record(z.string(), z.array(z.string())).default({}) }).default({ values: {} }),
    currentAssetFile: z.preprocess(unwrapResult, assetFileSchema.nullish()),
    lifecycleStatus: z.object({
      state: z.enum(LIFECYCLE_STATES),
      dateStaged: nullableText,
      datePendingApproval: nullableText,
      dateLive: nullableText,
      stagedBy: nullableText,
    }),
    dateLastModified: z.string(),
  })
  .transform((asset) => {
    const file = asset.currentAssetFile ?? null;
    return { ...asset, currentAssetFile: file === null || file.assetId !== '' ? file : { ...file, assetId: asset.id } };
  });

export const assetUploadSchema: z.ZodType<AssetUpload> = z
  .object({
    id: z.string().optional(),
    uploadId: z.string(),
    assetId: z.string(),
    assetFileId: nullableText,
    size: z.number().int().nonnegative(),
    partSize: z.number().int().positive(),
    expiresAt: z.string().default(''),
    parts: z.array(
      z.object({
        partNumber: z.number().int().positive(),
        url: z.string().refine((url) => URL.canParse(url), 'is not an absolute URL'),
        byteRange: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }).optional(),
      }),
    ),
  })
  .transform((upload) => ({
    ...upload,
    id: upload.id ?? upload.uploadId,
    // The layout rules are shared, so a missing range is the one the rules give.
    parts: upload.parts.map((part) => ({
      partNumber: part.partNumber,
      url: part.url,
      byteRange: part.byteRange ?? (({ start, end }) => ({ start, end }))(partRange(upload.size, upload.partSize, part.partNumber)),
    })),
  }));

export const uploadJobSuccessSchema: z.ZodType<UploadJobSuccess> = z.preprocess(unwrapResult, z.object({ assetId: z.string(), upload: z.preprocess(unwrapResult, assetUploadSchema) }));

/**
 * An MD5 as 32 hex digits (lower case from here on). The client names and compares files by it, so
 * anything else (a path, an empty string) is refused here, for every caller, before it reaches a disk.
 */
const md5Checksum = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, 'is not an MD5 (32 hex digits)')
  .transform((checksum) => checksum.toLowerCase());

export const downloadItemSchema: z.ZodType<DownloadItem> = z.object({
  url: z.string().refine((url) => URL.canParse(url), 'is not an absolute URL'),
  filename: z.string().default(''),
  size: z.number().int().nonnegative(),
  checksum: md5Checksum,
  contentType: z.string().default('application/octet-stream'),
});

/** The result of a zipped download job [ours]. */
export const downloadZipSchema: z.ZodType<DownloadZip> = z.object({
  zipUrl: z.string().refine((url) => URL.canParse(url), 'is not an absolute URL'),
  filename: z.string().default('download.zip'),
  size: z.number().int().nonnegative(),
  checksum: md5Checksum,
});

const presetSchema: z.ZodType<PresetTransformation> = z.object({
  id: z.string(),
  accountId: z.string().default(''),
  name: z.string().default(''),
  groupId: z.string().nullish().transform((value) => value ?? null),
  position: z.number().default(0),
  candidateTransformations: z.array(z.unknown()).optional(),
});

/** `GET /grouped-preset-transformations` (SERVICE-SPEC.md §2.7). */
export const presetGroupsSchema = z.preprocess(
  unwrapResult,
  z.object({
    itemGroupTypes: z.array(z.object({ groups: z.array(z.object({ items: z.array(presetSchema).default([]) })).default([]) })).default([]),
    ungroupedItems: z.array(presetSchema).default([]),
  }),
);

/** `POST /preset-transformations-for-asset-searches`: per asset, the presets that would transform its file. */
export const presetsForAssetsSchema = z.preprocess(
  unwrapResult,
  z.object({
    results: z.array(z.object({ assetId: z.string(), presetTransformations: z.array(presetSchema).default([]) })).default([]),
  }),
);

/** Envelope schemas already made, by item schema: making a zod schema costs far more than using it. */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();

/** A single resource: `{ result, permittedActions }`, or the bare resource from a foreign server. */
export function envelopeSchema<T>(item: z.ZodType<T>): z.ZodType<Envelope<T>> {
  const known = envelopes.get(item) as z.ZodType<Envelope<T>> | undefined;
  if (known !== undefined) return known;
  const schema: z.ZodType<Envelope<T>> = z.preprocess(
    (value) => (isRecord(value) && 'result' in value ? value : { result: value }),
    z.object({ result: item, permittedActions: z.array(permittedActionSchema).default([]) }),
  );
  envelopes.set(item, schema);
  return schema;
}

/** A search page; `totalResults` defaults to the page's length when absent. */
export function searchPageSchema<T>(item: z.ZodType<T>): z.ZodType<SearchPage<T>> {
  return z
    .object({
      results: z.array(envelopeSchema(item)).default([]),
      totalResults: z.number().int().nonnegative().optional(),
      scrollId: z.string().nullish(),
    })
    .transform((page) => {
      const result: SearchPage<T> = { results: page.results, totalResults: page.totalResults ?? page.results.length };
      if (typeof page.scrollId === 'string' && page.scrollId !== '') result.scrollId = page.scrollId;
      return result;
    });
}

/** Checks `data` against `schema`, or throws INVALID_RESPONSE naming the first problems. */
export function parseAnswer<T>(schema: z.ZodType<T>, data: unknown, method: string, path: string): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length === 0 ? '(body)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
  throw invalidResponse(method, path, problems);
}

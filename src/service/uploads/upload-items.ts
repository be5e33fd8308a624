/**
 * The upload request item of API.md §4, validated once for all four flows (asset-and-upload and
 * asset-upload batch jobs, single asset-uploads, and resumes that carry `partUrlsRequest.uploadId`).
 */
import { z } from 'zod';
import { MAX_FILE_SIZE, MAX_PARTS } from '../../shared/api/part-layout.js';

const id = z.string().min(1).max(200);

export const urlRequestSchema = z.object({
  partNumber: z.number().int().min(1).max(MAX_PARTS),
  /** base64 MD5 the client will send as Content-MD5; the part URL is then bound to it. */
  contentMd5: z
    .string()
    .regex(/^[A-Za-z0-9+/]{22}==$/, 'must be the base64 of a 16-byte MD5 digest')
    .optional(),
});

export const uploadItemSchema = z.object({
  batchItemId: z.string().min(1).max(200).optional(),
  path: z.string().min(2).max(4096).optional(),
  size: z.number().int().min(0).max(MAX_FILE_SIZE),
  partSize: z.number().int().positive().max(MAX_FILE_SIZE).optional(),
  partUrlsRequest: z
    .object({
      uploadId: id.nullish(),
      urlRequests: z.array(urlRequestSchema).max(MAX_PARTS).optional(),
    })
    .optional(),
  assetId: id.nullish(),
  assetFileId: id.nullish(),
});

export type UploadItem = z.infer<typeof uploadItemSchema>;

/** Batch bodies: 1–1000 items, each with a unique batchItemId. */
export function batchOf<T extends z.ZodType<{ batchItemId?: string | undefined }>>(item: T) {
  return z
    .object({ items: z.array(item).min(1).max(1000) })
    .superRefine((body, issues) => {
      const seen = new Set<string>();
      body.items.forEach((entry, index) => {
        const key = entry.batchItemId;
        if (key === undefined) issues.addIssue({ code: 'custom', path: ['items', index, 'batchItemId'], message: 'is required in a batch' });
        else if (seen.has(key)) issues.addIssue({ code: 'custom', path: ['items', index, 'batchItemId'], message: `"${key}" is used twice` });
        else seen.add(key);
      });
    });
}

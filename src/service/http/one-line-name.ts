/**
 * The schema of a display name typed by a person (collections, groups, portals, guest upload links): one line of
 * text, trimmed, 1–500 characters, without control characters (no NUL, no line breaks), as field names.
 */
import { z } from 'zod';

export const oneLineName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(500)
  // eslint-disable-next-line no-control-regex -- a name is one line of text: no NUL, no line breaks
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

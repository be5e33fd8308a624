/**
 * `null` on an optional request property means "not given" (API.md §1): clients generated from an API
 * description, and clients in Java, PHP or C#, send `null` for every optional property they leave unset,
 * and the hosted service reads it so. `withoutAbsentNulls` removes such nulls from a request, guided by
 * its zod schema, before the schema parses it; so every schema parsed through `parseInput` gets the rule,
 * nested objects, array items and union members included, without each route having to say so.
 *
 * The rule, per object property: when the property may be left out (zod gives it an `optin`: an
 * `.optional()` or `.default()`), a `null` is removed, unless the schema spells out `.nullable()` /
 * `.nullish()`, which is how a schema gives `null` its own meaning (`assetFileId: null` = a new version,
 * `parentId: null` = the top level). Required properties are left alone, so their `null` is still
 * refused naming the property. This module only removes; it never adds, reorders or coerces anything.
 */
import { z } from 'zod';

/** Deeper than any request we accept; stops a hostile nesting before it costs a stack. */
const MAX_DEPTH = 64;

export function withoutAbsentNulls(schema: z.core.$ZodType, input: unknown): unknown {
  // Most requests hold no null at all, and then there is nothing to remove: a walk of the input is far
  // cheaper than a walk of the schema beside it (whose unions try their members with zod).
  return holdsNull(input, 0) ? strip(schema, input, 0) : input;
}

function holdsNull(input: unknown, depth: number): boolean {
  if (input === null) return true;
  if (typeof input !== 'object' || depth > MAX_DEPTH) return false;
  for (const value of Array.isArray(input) ? input : Object.values(input)) {
    if (holdsNull(value, depth + 1)) return true;
  }
  return false;
}

const checkedByHandler = new WeakSet<z.core.$ZodType>();

/**
 * A property that is required, but whose absence the handler reports itself, with its own code and a
 * better message than zod's (a search's `criterion` and `sorts`, required [real]: 400 INVALID_CRITERION /
 * INVALID_SORT). The schema lets it through absent, and a `null` reads as absent like everywhere else,
 * so the handler's message is the same for both; tests know from `isRequiredByHandler` that it is not
 * optional to clients.
 */
export function requiredByHandler<S extends z.ZodType>(schema: S): z.ZodOptional<S> {
  const property = schema.optional();
  checkedByHandler.add(property);
  return property;
}

export function isRequiredByHandler(property: z.core.$ZodType): boolean {
  return checkedByHandler.has(property);
}

/** May the property be left out, and does `null` then mean the same as leaving it out? */
export function nullMeansAbsent(property: z.core.$ZodType): boolean {
  return property._zod.optin !== undefined && !spellsOutNull(property);
}

function spellsOutNull(schema: z.core.$ZodType): boolean {
  if (schema instanceof z.ZodNullable) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodReadonly) {
    return spellsOutNull(schema.unwrap());
  }
  if (schema instanceof z.ZodPipe) return spellsOutNull(schema.in instanceof z.ZodTransform ? schema.out : schema.in);
  return false;
}

function strip(schema: z.core.$ZodType, input: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || input === null || typeof input !== 'object') return input;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly) return strip(schema.unwrap(), input, depth);
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return strip(schema.unwrap(), input, depth);
  // `_zod.innerType` is the lazy schema's cached inner schema; `unwrap()` would call its getter, which
  // builds the whole schema anew (a criterion's ten-member union) at every node of every request.
  if (schema instanceof z.ZodLazy) return strip(schema._zod.innerType, input, depth + 1);
  if (schema instanceof z.ZodPipe) return schema.in instanceof z.ZodTransform ? input : strip(schema.in, input, depth);
  if (schema instanceof z.ZodIntersection) return strip(schema.def.right, strip(schema.def.left, input, depth), depth);
  if (schema instanceof z.ZodArray) return Array.isArray(input) ? input.map((item: unknown) => strip(schema.element, item, depth + 1)) : input;
  if (schema instanceof z.ZodRecord) return Array.isArray(input) ? input : mapValues(input, (value) => strip(schema.valueType, value, depth + 1));
  if (schema instanceof z.ZodObject) return Array.isArray(input) ? input : stripObject(schema.shape, input, depth);
  if (schema instanceof z.ZodDiscriminatedUnion) return stripDiscriminated(schema, input, depth);
  if (schema instanceof z.ZodUnion) return stripUnion(schema.options, input, depth);
  return input;
}

function stripObject(shape: Readonly<Record<string, z.core.$ZodType>>, input: object, depth: number): object {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(input)) {
    const property = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (property === undefined) entries.push([key, value]);
    else if (value === null && nullMeansAbsent(property)) continue;
    else entries.push([key, strip(property, value, depth + 1)]);
  }
  // fromEntries defines own properties: a `__proto__` key stays data, never becomes the prototype.
  return Object.fromEntries(entries);
}

/** The member the discriminator names (as zod picks it); the input as it came when it names none. */
function stripDiscriminated(schema: z.ZodDiscriminatedUnion, input: object, depth: number): unknown {
  const tag: unknown = Array.isArray(input) ? undefined : Object.entries(input).find(([key]) => key === schema.def.discriminator)?.[1];
  const chosen = schema.options.find((option) => option instanceof z.ZodObject && fitsTag(option.shape, schema.def.discriminator, tag));
  return chosen === undefined ? input : strip(chosen, input, depth);
}

function fitsTag(shape: Readonly<Record<string, z.core.$ZodType>>, discriminator: string, tag: unknown): boolean {
  const property = shape[discriminator];
  return property !== undefined && z.safeParse(property, tag).success;
}

/**
 * A plain union's member is chosen the way zod would: the first one the stripped input satisfies.
 * When none does, the input is left as it came, so zod's own message about it is unchanged.
 */
function stripUnion(options: readonly z.core.$ZodType[], input: object, depth: number): unknown {
  for (const option of options) {
    const stripped = strip(option, input, depth);
    if (z.safeParse(option, stripped).success) return stripped;
  }
  return input;
}

function mapValues(input: object, map: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, map(value)]));
}

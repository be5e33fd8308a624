/**
 * Walks a request body's zod schema and lists every optional property, at any depth, with a way to build
 * a body that sets just that property (inside the smallest scaffold that reaches it: arrays of one item,
 * union members with their discriminator) or leaves it out. Tests send both and compare the answers.
 */
import { z } from 'zod';
import { isRequiredByHandler, nullMeansAbsent } from '../../src/service/http/null-as-absent.js';

/** Leave the property out. */
export const ABSENT = Symbol('absent');

export interface OptionalProperty {
  /** e.g. `items.0.partUrlsRequest.uploadId` (as the service names it in a 400). */
  path: string;
  /** True when the schema gives `null` a meaning of its own (`.nullable()`), so it must not read as absent. */
  nullIsValue: boolean;
  /** Required, though its handler (not the schema) says so when it is missing: a 400 may name it. */
  required: boolean;
  /** The scaffolded body with the property set to `value`, or left out with ABSENT. */
  body: (value: unknown) => unknown;
}

const MAX_DEPTH = 8;

export function optionalProperties(schema: z.core.$ZodType): OptionalProperty[] {
  return walk(schema, 0).map((probe) => ({ path: probe.path.join('.'), nullIsValue: probe.nullIsValue, required: probe.required, body: probe.body }));
}

interface Probe {
  path: (string | number)[];
  nullIsValue: boolean;
  required: boolean;
  body: (value: unknown) => unknown;
}

function walk(schema: z.core.$ZodType, depth: number): Probe[] {
  if (depth > MAX_DEPTH) return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly) return walk(schema.unwrap(), depth);
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return walk(schema.unwrap(), depth);
  if (schema instanceof z.ZodLazy) return walk(schema.unwrap(), depth + 1);
  if (schema instanceof z.ZodPipe) return walk(schema.in instanceof z.ZodTransform ? schema.out : schema.in, depth);
  if (schema instanceof z.ZodIntersection) return [...walk(schema.def.left, depth), ...walk(schema.def.right, depth)];
  if (schema instanceof z.ZodUnion) return schema.options.flatMap((option) => walk(option, depth));
  if (schema instanceof z.ZodArray) {
    return walk(schema.element, depth + 1).map((probe) => ({ ...probe, path: [0, ...probe.path], body: (value: unknown) => [probe.body(value)] }));
  }
  if (schema instanceof z.ZodObject) return walkObject(schema.shape, depth);
  return [];
}

function walkObject(shape: Readonly<Record<string, z.core.$ZodType>>, depth: number): Probe[] {
  // Literal properties (discriminators such as `type: "BY_IDS"`) are part of the scaffold.
  const scaffold: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(shape)) {
    if (property instanceof z.ZodLiteral) scaffold[key] = property.value;
  }
  return Object.entries(shape).flatMap(([key, property]): Probe[] => {
    const nested = walk(property, depth + 1).map((probe) => ({
      ...probe,
      path: [key, ...probe.path],
      body: (value: unknown) => ({ ...scaffold, [key]: probe.body(value) }),
    }));
    if (property._zod.optin === undefined) return nested;
    const own: Probe = {
      path: [key],
      nullIsValue: !nullMeansAbsent(property),
      required: isRequiredByHandler(property),
      body: (value: unknown) => (value === ABSENT ? { ...scaffold } : { ...scaffold, [key]: value }),
    };
    return [own, ...nested];
  });
}

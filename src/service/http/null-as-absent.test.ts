import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from './parse-input.js';
import { nullMeansAbsent, withoutAbsentNulls } from './null-as-absent.js';
import { parseCriterion, parseSorts } from '../search/criterion-schema.js';

const item = z.object({
  size: z.number(),
  partSize: z.number().optional(),
  operation: z.enum(['REPLACE', 'ADD']).default('REPLACE'),
  assetFileId: z.string().nullish(),
  criterion: z.unknown().optional(),
  nested: z.object({ uploadId: z.string().optional(), urls: z.array(z.object({ contentMd5: z.string().optional() })).optional() }).optional(),
});

describe('null on an optional request property', () => {
  it('reads as absent, its default applying, at any depth', () => {
    const body = { size: 1, partSize: null, operation: null, criterion: null, nested: { uploadId: null, urls: [{ contentMd5: null }] } };
    expect(parseInput(item, body)).toEqual({ size: 1, operation: 'REPLACE', nested: { urls: [{}] } });
  });

  it('removes the property itself, not only its value', () => {
    expect(Object.keys(parseInput(item, { size: 1, partSize: null }))).toEqual(['size', 'operation']);
  });

  it('keeps null where the schema spells it out as a value', () => {
    expect(parseInput(item, { size: 1, assetFileId: null })).toEqual({ size: 1, operation: 'REPLACE', assetFileId: null });
  });

  it('is still refused on a required property, naming it', () => {
    expect(() => parseInput(item, { size: null })).toThrow(/size: Invalid input: expected number, received null/);
  });

  it('treats a whole optional object given as null as absent', () => {
    expect(parseInput(item, { size: 1, nested: null })).toEqual({ size: 1, operation: 'REPLACE' });
  });

  it('leaves unknown properties as they came (zod then drops them)', () => {
    expect(withoutAbsentNulls(item, { size: 1, extra: null })).toEqual({ size: 1, extra: null });
    expect(parseInput(item, { size: 1, extra: null })).toEqual({ size: 1, operation: 'REPLACE' });
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const body: unknown = JSON.parse('{"__proto__": {"size": 1}, "partSize": null}');
    expect(() => parseInput(item, body)).toThrow(/size: Invalid input/);
  });

  it('follows the member a discriminator names, and intersections on both sides', () => {
    const union = z.discriminatedUnion('type', [z.object({ type: z.literal('A'), a: z.string().optional() }), z.object({ type: z.literal('B'), b: z.number().optional() })]);
    expect(parseInput(union, { type: 'B', b: null })).toEqual({ type: 'B' });
    const both = z.object({ x: z.string().optional() }).and(z.object({ y: z.boolean().optional() }));
    expect(parseInput(both, { x: null, y: null })).toEqual({});
  });

  it('applies inside criteria and sorts', () => {
    const field = { type: 'FIXED', fieldName: 'FILENAME' };
    expect(parseCriterion({ type: 'NOT', criterion: { type: 'FIELD_EQUALS', field, value: 'a', includeSubfolders: null } })).toEqual({
      type: 'NOT',
      criterion: { type: 'FIELD_EQUALS', field, value: 'a' },
    });
    expect(parseSorts([{ field, order: null }])).toEqual([{ field, order: 'ASC' }]);
  });

  it('hands a request without any null back as it came', () => {
    const body = { size: 1, nested: { urls: [{ contentMd5: 'x' }] } };
    expect(withoutAbsentNulls(item, body)).toBe(body);
  });

  it('builds a lazy schema once, however deep the input nests it', () => {
    // A lazy schema's getter builds a new schema on each call: calling it per node made every search cost
    // the construction of the criterion union once per criterion it held.
    type Node = { child?: Node | undefined; note?: string | undefined };
    let built = 0;
    const node: z.ZodType<Node> = z.lazy(() => {
      built++;
      return z.object({ child: node.optional(), note: z.string().optional() });
    });
    const deep = { child: { child: { child: { note: null } } } };
    expect(node.parse(withoutAbsentNulls(node, deep))).toEqual({ child: { child: { child: {} } } });
    expect(built).toBe(1);
  });

  it('tells which properties it applies to', () => {
    expect(nullMeansAbsent(z.string().optional())).toBe(true);
    expect(nullMeansAbsent(z.number().default(0))).toBe(true);
    expect(nullMeansAbsent(z.unknown().optional())).toBe(true);
    expect(nullMeansAbsent(z.string())).toBe(false);
    expect(nullMeansAbsent(z.string().nullish())).toBe(false);
    expect(nullMeansAbsent(z.string().nullable().default(null))).toBe(false);
  });
});

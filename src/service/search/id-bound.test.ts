import { describe, expect, it } from 'vitest';
import { boundIds, idBoundMark } from './id-bound.js';

describe('id subqueries bounded past a cursor', () => {
  const where = `a.id IN (SELECT v.asset_id FROM asset_values v WHERE ${idBoundMark('v')}v.field_id = @p0) AND (NOT a.id IN (SELECT ca.asset_id FROM collection_assets ca WHERE ${idBoundMark('ca')}ca.collection_id IN (@p1)))`;

  it('leaves the marks inert (SQL comments) without a bound', () => {
    expect(boundIds(where, undefined)).toBe(where);
    expect(where).not.toMatch(/asset_id >/);
  });

  it('bounds every marked subquery by its own alias', () => {
    expect(boundIds(where, '> @k0')).toBe(
      'a.id IN (SELECT v.asset_id FROM asset_values v WHERE v.asset_id > @k0 AND v.field_id = @p0) AND (NOT a.id IN (SELECT ca.asset_id FROM collection_assets ca WHERE ca.asset_id > @k0 AND ca.collection_id IN (@p1)))',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { PlanRest, REPLAN_AT_LEAST_EVERY_MS } from './plan-rest.js';

const quiet = { now: 1_000, observed: false, state: '7:1', waiting: '' };

describe('PlanRest', () => {
  it('never rests before a plan, or after one that found something to do', () => {
    const rest = new PlanRest();
    expect(rest.resting(quiet)).toBeUndefined();
    rest.planned(quiet, 3, 0);
    expect(rest.resting({ ...quiet, now: 2_000 })).toBeUndefined();
  });

  it('rests after a plan with nothing to do while nothing changes, reporting the held deletions', () => {
    const rest = new PlanRest();
    rest.planned(quiet, 0, 6);
    expect(rest.resting({ ...quiet, now: 2_000 })).toEqual({ heldDeletes: 6 });
    expect(rest.resting({ ...quiet, now: 3_000 })).toEqual({ heldDeletes: 6 });
  });

  it.each([
    ['a scan ran', { observed: true }],
    ['the state database changed', { state: '8:1' }],
    ['another process wrote to it', { state: '7:2' }],
    ['a retry came due, or an asset awaits a look', { waiting: 'a.png' }],
    ['the state is unknown', { state: undefined }],
    ['the safety interval passed', { now: 1_000 + REPLAN_AT_LEAST_EVERY_MS }],
  ])('plans again when %s, and not from that rest later', (_why, change) => {
    const rest = new PlanRest();
    rest.planned(quiet, 0, 0);
    expect(rest.resting({ ...quiet, now: 2_000, ...change })).toBeUndefined();
    // The rest was used up: without a new plan, no rest even once things are quiet again.
    expect(rest.resting({ ...quiet, now: 2_500 })).toBeUndefined();
  });
});

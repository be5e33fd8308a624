import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelay } from './retry-delay.js';

const policy = { baseMs: 250, maxMs: 30_000 };
const now = Date.parse('2026-03-01T09:24:01.000Z');

describe('retryDelay', () => {
  it.each([
    // attempt, random, retryAfterMs, expected
    [1, 0, undefined, 0],
    [1, 0.999, undefined, 249],
    [1, 0.5, undefined, 125],
    [2, 0.5, undefined, 250],
    [3, 0.5, undefined, 500],
    [4, 1, undefined, 2000],
    [8, 0.5, undefined, 15_000],
    [9, 0.5, undefined, 15_000], // capped at maxMs = 30 s
    [200, 0.5, undefined, 15_000], // no overflow for absurd attempts
    [0, 0.5, undefined, 125], // attempt below 1 counts as the first
    [3, 0.5, 5000, 5000], // Retry-After wins over backoff…
    [1, 0.5, 60_000, 60_000], // …even above maxMs
    [1, 0.5, 0, 0],
    [1, -3, undefined, 0], // a random source out of range is clamped
    [1, 7, undefined, 250],
  ])('attempt %i, random %d, Retry-After %s → %i ms', (attempt, random, retryAfterMs, expected) => {
    expect(retryDelay(attempt, random, policy, retryAfterMs)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['  ', undefined],
    ['0', 0],
    ['120', 120_000],
    [' 5 ', 5000],
    ['1.5', 1500],
    ['-5', undefined],
    ['soon', undefined],
    ['Sun, 01 Mar 2026 09:24:31 GMT', 30_000],
    ['Sunday, 01-Mar-26 09:24:11 GMT', 10_000],
    ['Sun Mar  1 09:25:01 2026', undefined], // asctime has no zone: read as local time, so only checked below
    ['Sun, 01 Mar 2026 09:00:00 GMT', 0], // in the past
  ])('%j → %s', (value, expected) => {
    const parsed = parseRetryAfter(value, now);
    if (value?.startsWith('Sun Mar') === true) expect(typeof parsed).toBe('number');
    else expect(parsed).toBe(expected);
  });
});

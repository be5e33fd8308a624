import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../../test/support/test-users.js';
import { attemptLimiter } from './attempt-limiter.js';

describe('attemptLimiter', () => {
  const limits = { freeFailures: 3, baseWaitMs: 10_000, maxWaitMs: 60_000, perSubject: 5, perClient: Number.POSITIVE_INFINITY, windowMs: 600_000 };

  it('lets an address fail a few times, then makes it wait, doubling with each further failure up to the cap', () => {
    const clock = fakeClock(0);
    const limiter = attemptLimiter(clock, limits);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(limiter.retryAfter('p', 'a')).toBe(0);
      limiter.failed('p', 'a');
    }
    expect(limiter.retryAfter('p', 'a')).toBe(10);
    clock.advance(10_000);
    expect(limiter.retryAfter('p', 'a')).toBe(0);
    limiter.failed('p', 'a');
    expect(limiter.retryAfter('p', 'a')).toBe(20);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      clock.advance(60_000);
      limiter.failed('p', 'a');
    }
    expect(limiter.retryAfter('p', 'a')).toBe(60);
    // Another subject, or the same one from elsewhere, is not held up by it.
    expect(limiter.retryAfter('q', 'a')).toBe(0);
  });

  it('forgets an address when it gets the credential right, or after a quiet window', () => {
    const clock = fakeClock(0);
    const limiter = attemptLimiter(clock, limits);
    for (let attempt = 0; attempt < 3; attempt += 1) limiter.failed('p', 'a');
    limiter.succeeded('p', 'a');
    expect(limiter.retryAfter('p', 'a')).toBe(0);
    for (let attempt = 0; attempt < 3; attempt += 1) limiter.failed('p', 'b');
    clock.advance(600_000);
    expect(limiter.retryAfter('p', 'b')).toBe(0);
  });

  it('never makes an address wait for others\' failures, and gives each one free failure while a guess is spread out', () => {
    const limiter = attemptLimiter(fakeClock(0), limits);
    for (const client of ['a', 'b', 'c', 'd', 'e']) for (let attempt = 0; attempt < 3; attempt += 1) limiter.failed('p', client);
    expect(limiter.retryAfter('p', 'right visitor')).toBe(0);
    limiter.failed('p', 'guesser');
    expect(limiter.retryAfter('p', 'guesser')).toBe(10);
    expect(limiter.retryAfter('other', 'guesser')).toBe(0);
  });

  it('makes an address that fails on many subjects wait, whatever it tries next, and nobody else', () => {
    const clock = fakeClock(0);
    const limiter = attemptLimiter(clock, { ...limits, perClient: 4 });
    for (const subject of ['p', 'q', 'r', 's']) limiter.failed(subject, 'stuffer');
    expect(limiter.retryAfter('t', 'stuffer')).toBe(10);
    expect(limiter.retryAfter('t', 'someone else')).toBe(0);
    clock.advance(10_000);
    limiter.failed('t', 'stuffer');
    expect(limiter.retryAfter('u', 'stuffer')).toBe(20);
    // A success on one subject does not clear the address's failures on others.
    limiter.succeeded('u', 'stuffer');
    expect(limiter.retryAfter('u', 'stuffer')).toBe(20);
  });
});

import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../../test/support/test-users.js';
import { attemptLimiter } from './attempt-limiter.js';

describe('attemptLimiter', () => {
  const limits = { perClient: 3, perPortal: 5, windowMs: 60_000 };

  it('refuses a client after its failures, until the oldest leaves the window', () => {
    const clock = fakeClock(0);
    const limiter = attemptLimiter(clock, limits);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(limiter.retryAfter('p', 'a')).toBe(0);
      limiter.failed('p', 'a');
      clock.advance(10_000);
    }
    // Failures at 0, 10 and 20 s: the first leaves the window at 60 s, 30 s from now.
    expect(limiter.retryAfter('p', 'a')).toBe(30);
    expect(limiter.retryAfter('p', 'b')).toBe(0);
    expect(limiter.retryAfter('q', 'a')).toBe(0);
    clock.advance(30_001);
    expect(limiter.retryAfter('p', 'a')).toBe(0);
  });

  it('forgets a client\'s failures when it gets the passcode right', () => {
    const limiter = attemptLimiter(fakeClock(0), limits);
    limiter.failed('p', 'a');
    limiter.failed('p', 'a');
    limiter.succeeded('p', 'a');
    limiter.failed('p', 'a');
    limiter.failed('p', 'a');
    expect(limiter.retryAfter('p', 'a')).toBe(0);
  });

  it('limits a portal across addresses, so spreading guesses does not help', () => {
    const limiter = attemptLimiter(fakeClock(0), limits);
    for (const client of ['a', 'b', 'c', 'd', 'e']) limiter.failed('p', client);
    expect(limiter.retryAfter('p', 'fresh')).toBeGreaterThan(0);
    expect(limiter.retryAfter('other', 'fresh')).toBe(0);
  });
});

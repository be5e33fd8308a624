import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../../test/support/test-users.js';
import { hashPasscode, passcodeMatches } from './passcodes.js';
import { verifiedPasscodes, type PasscodeHasher } from './verified-passcodes.js';

/** The real scrypt check, counted. */
function countingHasher(): { hasher: PasscodeHasher; calls: () => number } {
  let calls = 0;
  return {
    hasher: async (attempt, stored) => {
      calls += 1;
      return passcodeMatches(attempt, stored);
    },
    calls: () => calls,
  };
}

describe('verifiedPasscodes', () => {
  it('runs scrypt once for a right passcode, then answers from memory', async () => {
    const counted = countingHasher();
    const cache = verifiedPasscodes(fakeClock(0), { hasher: counted.hasher });
    const stored = await hashPasscode('open sesame');
    expect(await cache.matches('p', stored, 'open sesame')).toBe(true);
    expect(await cache.matches('p', stored, 'open sesame')).toBe(true);
    expect(await cache.matches('p', stored, 'open sesame')).toBe(true);
    expect(counted.calls()).toBe(1);
    // Another portal with the same hash is another entry.
    expect(await cache.matches('q', stored, 'open sesame')).toBe(true);
    expect(counted.calls()).toBe(2);
  });

  it('never remembers a wrong passcode: each attempt pays for scrypt', async () => {
    const counted = countingHasher();
    const cache = verifiedPasscodes(fakeClock(0), { hasher: counted.hasher });
    const stored = await hashPasscode('open sesame');
    expect(await cache.matches('p', stored, 'open sesamE')).toBe(false);
    expect(await cache.matches('p', stored, 'open sesamE')).toBe(false);
    expect(counted.calls()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('refuses the old passcode once the portal has a new one', async () => {
    const counted = countingHasher();
    const cache = verifiedPasscodes(fakeClock(0), { hasher: counted.hasher });
    const before = await hashPasscode('old one');
    expect(await cache.matches('p', before, 'old one')).toBe(true);
    const after = await hashPasscode('new one');
    expect(await cache.matches('p', after, 'old one')).toBe(false);
    expect(await cache.matches('p', after, 'new one')).toBe(true);
    expect(counted.calls()).toBe(3);
  });

  it('checks again with scrypt after the entry\'s time is up', async () => {
    const clock = fakeClock(0);
    const counted = countingHasher();
    const cache = verifiedPasscodes(clock, { hasher: counted.hasher, ttlMs: 60_000 });
    const stored = await hashPasscode('open sesame');
    await cache.matches('p', stored, 'open sesame');
    clock.advance(59_000);
    await cache.matches('p', stored, 'open sesame');
    expect(counted.calls()).toBe(1);
    // Use does not extend trust: the entry is as old as the scrypt check that made it.
    clock.advance(1_000);
    await cache.matches('p', stored, 'open sesame');
    expect(counted.calls()).toBe(2);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const counted = countingHasher();
    const cache = verifiedPasscodes(fakeClock(0), { hasher: counted.hasher, maxEntries: 2 });
    const stored = await hashPasscode('open sesame');
    await cache.matches('a', stored, 'open sesame');
    await cache.matches('b', stored, 'open sesame');
    await cache.matches('a', stored, 'open sesame');
    await cache.matches('c', stored, 'open sesame');
    expect(cache.size).toBe(2);
    expect(counted.calls()).toBe(3);
    await cache.matches('a', stored, 'open sesame');
    expect(counted.calls()).toBe(3);
    await cache.matches('b', stored, 'open sesame');
    expect(counted.calls()).toBe(4);
  });

  it('shares one scrypt among parallel requests with the same passcode', async () => {
    const counted = countingHasher();
    const cache = verifiedPasscodes(fakeClock(0), { hasher: counted.hasher });
    const stored = await hashPasscode('open sesame');
    const answers = await Promise.all(Array.from({ length: 8 }, () => cache.matches('p', stored, 'open sesame')));
    expect(answers).toEqual(Array.from({ length: 8 }, () => true));
    expect(counted.calls()).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { IdStamps, timeOrderedToken, timeOrderedUuid } from './time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID that carries its millisecond', () => {
    const now = Date.UTC(2026, 10, 23, 5, 0, 0, 123);
    const id = timeOrderedUuid(now, new IdStamps());
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(now);
  });

  it('increases within one millisecond, across milliseconds and when the clock steps back', () => {
    const clock = new IdStamps();
    const base = Date.UTC(2026, 0, 1);
    const times = [base, base, base, base + 5, base + 5, base + 2, base + 1, base + 9];
    const ids = times.map((now) => timeOrderedUuid(now, clock));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('moves on a millisecond when the counter runs out, still increasing', () => {
    const clock = new IdStamps();
    const now = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 5000 }, () => timeOrderedUuid(now, clock));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(Number.parseInt((ids.at(-1) ?? '').replaceAll('-', '').slice(0, 12), 16)).toBeGreaterThan(now);
  });

  it('differs in its random bits between two clocks at the same instant', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(timeOrderedUuid(now, new IdStamps()).slice(19)).not.toBe(timeOrderedUuid(now, new IdStamps()).slice(19));
  });
});

describe('timeOrderedToken', () => {
  it('sorts by time and ends in 12 random bytes', () => {
    const clock = new IdStamps();
    const base = Date.UTC(2026, 0, 1);
    const tokens = [base, base, base + 1, base + 1000].map((now) => timeOrderedToken(now, clock));
    expect([...tokens].sort()).toEqual(tokens);
    for (const token of tokens) {
      expect(token).toMatch(/^[0-9a-f]{15}[A-Za-z0-9_-]{16}$/);
      expect(Buffer.from(token.slice(15), 'base64url')).toHaveLength(12);
    }
  });

  it('holds whole milliseconds when the clock gives fractions of one (a virtual clock)', () => {
    const clock = new IdStamps();
    const base = Date.UTC(2026, 0, 1);
    const tokens = [base + 0.5, base + 1.25, base + 1.75].map((now) => timeOrderedToken(now, clock));
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{15}[A-Za-z0-9_-]{16}$/);
    expect([...tokens].sort()).toEqual(tokens);
    expect(timeOrderedUuid(base + 2.5, clock)).toMatch(UUID_V7);
  });
});

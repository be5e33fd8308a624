import { describe, expect, it } from 'vitest';
import { SimClock } from './sim-clock.js';
import { SeededIds } from './seeded-ids.js';

/** The ids a seed's first requests would draw: ten UUIDs, then an upload token, the clock moving between. */
function draw(ids: SeededIds, clock: SimClock): string[] {
  const drawn: string[] = [];
  for (let index = 0; index < 10; index++) {
    drawn.push(ids.uuid());
    if (index % 3 === 0) clock.advance(5);
  }
  drawn.push(ids.token());
  return drawn;
}

describe('the simulation service ids', () => {
  it('are the same for a seed every time it starts, whatever was drawn before', () => {
    const clock = new SimClock();
    const ids = new SeededIds(clock);
    ids.reseed(30244);
    const first = draw(ids, clock);
    ids.reseed(7);
    draw(ids, clock);
    clock.reset();
    ids.reseed(30244);
    expect(draw(ids, clock)).toEqual(first);
  });

  it('differ between seeds, and sort by the virtual time they were made', () => {
    const clock = new SimClock();
    const ids = new SeededIds(clock);
    ids.reseed(1);
    const one = draw(ids, clock);
    clock.reset();
    ids.reseed(2);
    const two = draw(ids, clock);
    expect(one.slice(0, 10).every((id) => !two.includes(id))).toBe(true);
    expect([...one.slice(0, 10)].sort()).toEqual(one.slice(0, 10));
    expect(one[0]?.slice(0, 8)).toBe(Date.UTC(2026, 0, 1).toString(16).padStart(12, '0').slice(0, 8));
  });
});

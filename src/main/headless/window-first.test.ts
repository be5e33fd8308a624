import { describe, expect, it } from 'vitest';
import { ManualClock } from '../local/index.js';
import { windowFirst } from './window-first.js';

/** Whether the gate has opened, after the promise callbacks waiting on it have run. */
async function isDone(gate: { done: Promise<void> }): Promise<boolean> {
  let done = false;
  void gate.done.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the window goes first', () => {
  it('lets the load start once a window was sent its first state', async () => {
    const clock = new ManualClock();
    const gate = windowFirst({ clock, waitMs: 1000 });
    gate.linked();
    gate.opened();
    clock.advance(900);
    expect(await isDone(gate)).toBe(false);
    gate.stateSent();
    expect(await isDone(gate)).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('waits no longer than waitMs for a window that never opens', async () => {
    const clock = new ManualClock();
    const gate = windowFirst({ clock, waitMs: 1000 });
    gate.linked();
    clock.advance(999);
    expect(await isDone(gate)).toBe(false);
    clock.advance(1);
    expect(await isDone(gate)).toBe(true);
  });

  it('gives a window that opened waitMs from its opening to be sent a state, and no more', async () => {
    const clock = new ManualClock();
    const gate = windowFirst({ clock, waitMs: 1000 });
    gate.linked();
    clock.advance(800);
    gate.opened();
    clock.advance(800);
    expect(await isDone(gate)).toBe(false);
    clock.advance(200);
    expect(await isDone(gate)).toBe(true);
  });

  it('opens at once when released, and a state or an opening after that changes nothing', async () => {
    const clock = new ManualClock();
    const gate = windowFirst({ clock, waitMs: 1000 });
    gate.release();
    gate.linked();
    gate.opened();
    gate.stateSent();
    expect(await isDone(gate)).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });
});

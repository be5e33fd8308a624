import { describe, expect, it } from 'vitest';
import { ManualClock } from '../local/index.js';
import { AppError } from './app-error.js';
import { PauseState, type PausableRunner } from './pause-state.js';

/** The one runner call the pauses make, recorded. */
function recordingRunner(calls: string[]): PausableRunner {
  return {
    setPaused: (rootId, paused) => {
      calls.push(`${rootId ?? 'all'}:${paused ? 'paused' : 'running'}`);
    },
  };
}

function pausesWith(options: { known?: string[] } = {}) {
  const clock = new ManualClock();
  const calls: string[] = [];
  let changes = 0;
  const runner = recordingRunner(calls);
  const pauses = new PauseState({
    clock,
    runner: () => runner,
    checkFolder: (folderId) => {
      if (options.known !== undefined && !options.known.includes(folderId)) throw new AppError('NOT_FOUND', `no ${folderId}`);
    },
    changed: () => {
      changes++;
    },
  });
  return { clock, calls, pauses, changes: () => changes };
}

describe('the pauses', () => {
  it('pauses everything for an hour, then resumes on the clock', () => {
    const { clock, calls, pauses, changes } = pausesWith();
    pauses.pause({ span: 'one-hour' });
    expect(pauses.globalView()).toEqual({ until: new Date(clock.now() + 3600_000).toISOString() });
    expect(pauses.folderView('root-1')).toEqual(pauses.globalView());
    expect(calls).toEqual(['all:paused']);
    clock.advance(3600_000);
    expect(pauses.globalView()).toBeNull();
    expect(calls).toEqual(['all:paused', 'all:running']);
    expect(changes()).toBe(2);
  });

  it('pauses one folder until resumed; forgetting it tells the runner nothing', () => {
    const { clock, calls, pauses } = pausesWith({ known: ['root-1'] });
    pauses.pause({ folderId: 'root-1', span: 'until-resumed' });
    expect(pauses.folderView('root-1')).toEqual({ until: null });
    expect(pauses.folderView('root-2')).toBeUndefined();
    expect(() => {
      pauses.pause({ folderId: 'root-2', span: 'one-hour' });
    }).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    clock.advance(10 * 3600_000);
    expect(pauses.folderView('root-1')).toEqual({ until: null });
    pauses.forget('root-1');
    expect(pauses.folderView('root-1')).toBeUndefined();
    expect(calls).toEqual(['root-1:paused']);
  });

  it('refuses a span it does not know', () => {
    const { pauses } = pausesWith();
    expect(() => {
      pauses.pause({ span: 'forever' as never });
    }).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('hands every pause to a new session runner, and cancels the timers on close', () => {
    const { clock, calls, pauses } = pausesWith();
    pauses.pause({ folderId: 'root-1', span: 'one-hour' });
    pauses.pause({ span: 'until-resumed' });
    const fresh: string[] = [];
    pauses.applyTo(recordingRunner(fresh));
    expect(fresh).toEqual(['root-1:paused', 'all:paused']);
    pauses.cancelTimers();
    clock.advance(2 * 3600_000);
    expect(calls).toEqual(['root-1:paused', 'all:paused']);
  });
});

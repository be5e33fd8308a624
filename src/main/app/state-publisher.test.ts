import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import { appState } from '../../../test/support/app-state-builder.js';
import { ManualClock } from '../local/index.js';
import { StatePublisher } from './state-publisher.js';

function publisherWithClock(publishMs = 250) {
  const clock = new ManualClock();
  let revision = 0;
  const publisher = new StatePublisher({ clock, publishMs, build: () => appState({ revision: ++revision }) });
  const revisions: number[] = [];
  publisher.subscribe((event: AppEvent) => {
    if (event.type === 'state') revisions.push(event.state.revision);
  });
  return { clock, publisher, revisions };
}

describe('the state publisher', () => {
  it('sends a new subscriber the state at once', () => {
    const { revisions } = publisherWithClock();
    expect(revisions).toEqual([1]);
  });

  it('publishes a change at once when the last state is old, then at most one per publishMs, the latest', () => {
    const { clock, publisher, revisions } = publisherWithClock();
    publisher.changed();
    expect(revisions).toEqual([1, 2]);
    for (let i = 0; i < 5; i++) publisher.changed();
    clock.advance(249);
    expect(revisions).toEqual([1, 2]);
    clock.advance(1);
    // One state for the five changes, built when it goes out.
    expect(revisions).toEqual([1, 2, 3]);
    clock.advance(10_000);
    expect(revisions).toEqual([1, 2, 3]);
    publisher.changed();
    expect(revisions).toEqual([1, 2, 3, 4]);
  });

  it('builds no state while nobody listens, and nothing after close', () => {
    const clock = new ManualClock();
    let built = 0;
    const publisher = new StatePublisher({ clock, publishMs: 250, build: () => appState({ revision: ++built }) });
    publisher.changed();
    expect(built).toBe(0);
    const events: AppEvent[] = [];
    publisher.subscribe((event) => events.push(event));
    clock.advance(1000);
    publisher.changed();
    publisher.changed();
    expect(events).toHaveLength(2);
    publisher.changed();
    publisher.close();
    expect(publisher.closed).toBe(true);
    clock.advance(1000);
    publisher.changed();
    publisher.emit({ type: 'activity', entry: { id: 1, at: '', folderId: 'root-1', relPath: 'a', kind: 'upload', status: 'done', from: null, bytesDone: 0, bytesTotal: null, error: null } });
    expect(events).toHaveLength(2);
  });

  it('keeps sending to the other listeners when one throws', () => {
    const { publisher } = publisherWithClock();
    const seen: string[] = [];
    publisher.subscribe(() => {
      throw new Error('a broken window');
    });
    const unsubscribe = publisher.subscribe((event) => seen.push(event.type));
    publisher.emit({ type: 'sign-in-needed', server: 'http://127.0.0.1:7480', reason: { name: 'ApiError', code: 'NOT_SIGNED_IN', message: 'again' } });
    expect(seen).toEqual(['state', 'sign-in-needed']);
    unsubscribe();
    publisher.emit({ type: 'sign-in-needed', server: 'http://127.0.0.1:7480', reason: { name: 'ApiError', code: 'NOT_SIGNED_IN', message: 'again' } });
    expect(seen).toHaveLength(2);
  });
});

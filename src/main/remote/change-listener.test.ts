import { describe, expect, it } from 'vitest';
import { ApiError, type FollowChangesRequest } from '../api/index.js';
import type { ServiceFeatures } from '../../shared/api/change-feed.js';
import type { Clock } from '../local/index.js';
import { ChangeListener } from './change-listener.js';

type Step = (request: FollowChangesRequest) => Promise<void>;

/** A listener against a scripted service; the clock's timers (its pauses) fire at once and are recorded. */
function harness(features: ServiceFeatures | (() => Promise<ServiceFeatures>), steps: Step[], random = () => 0.5) {
  const controller = new AbortController();
  const sleeps: number[] = [];
  const cursors: (string | undefined)[] = [];
  const calls: string[] = [];
  let discoveries = 0;
  const clock: Clock = {
    now: () => 0,
    setTimer(ms, callback) {
      sleeps.push(ms);
      if (sleeps.length > 20) controller.abort();
      queueMicrotask(callback);
      return () => undefined;
    },
    sleep: () => Promise.reject(new Error('the listener pauses on timers')),
  };
  const listener = new ChangeListener({
    api: {
      async serviceFeatures() {
        discoveries++;
        if (discoveries > 3) controller.abort();
        return typeof features === 'function' ? features() : features;
      },
      async followChanges(request) {
        cursors.push(request.cursor);
        const step = steps.shift();
        if (step === undefined) {
          controller.abort();
          return;
        }
        await step(request);
      },
    },
    clock,
    random,
    following: (followed) => calls.push(followed ? 'following' : 'polling'),
    changed: (kinds) => calls.push(`changed ${kinds.join(',')}`),
    reset: () => calls.push('reset'),
  });
  return { run: () => listener.run(controller.signal), sleeps, cursors, calls, discoveries: () => discoveries };
}

const feed: ServiceFeatures = { changeFeed: { path: '/change-events', protocol: 'server-sent-events', heartbeatSeconds: 20 } };
const ready = (cursor: string): Step => async (request) => request.onEvent({ type: 'ready', cursor, kinds: [] });
const dropped = (code = 'NETWORK'): ApiError => new ApiError({ code, message: `GET /change-events failed: ${code}` });

describe('ChangeListener', () => {
  it('polls a service without a feed and asks it again only now and then', async () => {
    const h = harness({}, []);
    await h.run();
    expect(h.calls).toEqual([]);
    expect(h.cursors).toEqual([]);
    expect(h.sleeps.slice(0, 3)).toEqual([30 * 60_000, 30 * 60_000, 30 * 60_000]);
  });

  it('follows the feed: a fresh stream catches up once, then passes on what changed', async () => {
    const h = harness(feed, [
      async (request) => {
        request.onEvent({ type: 'ready', cursor: 'e.1', kinds: [] });
        request.onEvent({ type: 'change', cursor: 'e.2', kinds: ['ASSET_FILE'] });
        request.onEvent({ type: 'change', cursor: 'e.3', kinds: ['FOLDER', 'ASSET'] });
      },
    ]);
    await h.run();
    expect(h.calls.slice(0, 4)).toEqual(['following', 'changed ASSET,ASSET_FILE,FOLDER', 'changed ASSET_FILE', 'changed FOLDER,ASSET']);
  });

  it('reconnects after a drop with its last cursor, after a jittered pause that grows, polling meanwhile', async () => {
    const h = harness(
      feed,
      [
        async (request) => {
          await ready('e.5')(request);
          throw dropped();
        },
        async () => Promise.reject(dropped('ECONNREFUSED')),
        async () => Promise.reject(dropped('ECONNREFUSED')),
        async (request) => {
          await ready('e.5')(request);
          request.onEvent({ type: 'change', cursor: 'e.7', kinds: ['ASSET'] });
        },
      ],
      () => 0,
    );
    await h.run();
    expect(h.cursors.slice(0, 4)).toEqual([undefined, 'e.5', 'e.5', 'e.5']);
    expect(h.calls.slice(0, 5)).toEqual(['following', 'changed ASSET,ASSET_FILE,FOLDER', 'polling', 'following', 'changed ASSET']);
    // Half the capped delay plus up to half again as jitter (random 0 here): 1 s, 2 s, 4 s → 0.5, 1, 2 s.
    expect(h.sleeps.slice(0, 3)).toEqual([500, 1000, 2000]);
  });

  it('spreads reconnections with jitter', async () => {
    const spread = harness(feed, [async () => Promise.reject(dropped())], () => 0.99);
    await spread.run();
    expect(spread.sleeps[0]).toBeCloseTo(995);
  });

  it('caps the pause between failed connections', async () => {
    const h = harness(feed, Array.from({ length: 12 }, () => async () => Promise.reject(dropped())), () => 0.5);
    await h.run();
    expect(Math.max(...h.sleeps)).toBe(45_000);
  });

  it('lists everything in full when the service refuses the cursor, then starts from a fresh one', async () => {
    const h = harness(feed, [
      async (request) => {
        await ready('old.9')(request);
        throw dropped();
      },
      async () => Promise.reject(new ApiError({ code: 'CHANGE_CURSOR_UNKNOWN', status: 410, message: 'gone' })),
      ready('new.1'),
    ]);
    await h.run();
    expect(h.cursors.slice(0, 3)).toEqual([undefined, 'old.9', undefined]);
    expect(h.calls).toEqual(['following', 'changed ASSET,ASSET_FILE,FOLDER', 'polling', 'reset', 'following', 'changed ASSET,ASSET_FILE,FOLDER', 'polling']);
  });

  it('goes back to polling when the feed disappears, and to discovery', async () => {
    const h = harness(feed, [async () => Promise.reject(new ApiError({ code: 'NOT_FOUND', status: 404, message: 'no' }))]);
    await h.run();
    expect(h.discoveries()).toBeGreaterThan(1);
    expect(h.calls).toEqual([]);
  });

  it('keeps polling when discovery fails, and asks again after a pause', async () => {
    const h = harness(async () => Promise.reject(dropped()), []);
    await h.run();
    expect(h.discoveries()).toBeGreaterThan(1);
    expect(h.sleeps[0]).toBeGreaterThan(0);
  });
});

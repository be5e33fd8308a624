import { describe, expect, it } from 'vitest';
import { ConnectivityMonitor } from './connectivity-monitor.js';
import { ApiError } from './api-error.js';
import { instantClock } from '../../../test/support/api-client-fakes.js';
import type { Connectivity } from '../../shared/sync/connectivity.js';
import { describeConnectivity } from '../../shared/sync/connectivity.js';

const refused = (): ApiError => new ApiError({ code: 'NETWORK', retryable: true, maybeApplied: false, message: 'GET http://127.0.0.1:9/x failed: ECONNREFUSED' });

describe('ConnectivityMonitor', () => {
  it('reports reachable → unreachable → reachable once each, however many requests fail', () => {
    const clock = instantClock();
    const monitor = new ConnectivityMonitor('http://127.0.0.1:9', clock);
    const heard: Connectivity[] = [];
    monitor.listen((change) => heard.push(change));
    monitor.reached();
    for (let file = 0; file < 50; file++) monitor.failed(refused());
    clock.advance(60_000);
    for (let poll = 0; poll < 10; poll++) monitor.failed(refused());
    monitor.reached();
    monitor.reached();
    expect(heard.map((change) => change.state)).toEqual(['unreachable', 'reachable']);
  });

  it('steps the next try through its schedule, one step per try, and waits for it', async () => {
    const clock = instantClock();
    const start = clock.now();
    const monitor = new ConnectivityMonitor('http://127.0.0.1:9', clock, [1_000, 3_000]);
    monitor.failed(refused());
    monitor.failed(refused());
    expect(monitor.state).toMatchObject({ state: 'unreachable', since: start, nextTryAt: start + 1_000 });
    await monitor.ready();
    expect(clock.now()).toBe(start + 1_000);
    monitor.failed(refused());
    monitor.failed(refused());
    expect(monitor.state).toMatchObject({ nextTryAt: start + 4_000 });
    expect(describeConnectivity(monitor.state, start + 1_000)).toBe("Can't reach the service at http://127.0.0.1:9 — retrying (next try in 3 s)");
    clock.advance(3_000);
    monitor.failed(refused());
    expect(monitor.state).toMatchObject({ nextTryAt: start + 7_000, since: start });
  });

  it('ignores failures that may have reached the service, and stops waiting when told', async () => {
    const clock = instantClock();
    const monitor = new ConnectivityMonitor('http://127.0.0.1:9', clock);
    monitor.failed(new ApiError({ code: 'NETWORK', retryable: true, maybeApplied: true, message: 'ECONNRESET' }));
    monitor.failed(new ApiError({ code: 'SERVER_ERROR', status: 503, retryable: true, message: '503' }));
    expect(monitor.state.state).toBe('reachable');
    monitor.failed(refused());
    const stop = new AbortController();
    stop.abort();
    await expect(monitor.ready(stop.signal)).rejects.toBeDefined();
  });

  it('fails at once until the next try in a single pass (fail mode), without waiting', async () => {
    const clock = instantClock();
    const monitor = new ConnectivityMonitor('http://127.0.0.1:9', clock);
    monitor.failed(refused());
    await expect(monitor.ready(undefined, 'fail')).rejects.toMatchObject({ code: 'NETWORK', retryable: false, maybeApplied: false });
    expect(clock.sleeps).toEqual([]);
    clock.advance(2_000);
    await expect(monitor.ready(undefined, 'fail')).resolves.toBeUndefined();
  });
});

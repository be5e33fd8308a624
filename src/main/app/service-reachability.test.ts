import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { ConnectivityMonitor } from '../api/connectivity-monitor.js';
import { ManualClock } from '../local/manual-clock.js';
import { ServiceReachability } from './service-reachability.js';

const refused = (): ApiError => new ApiError({ code: 'NETWORK', message: 'connect ECONNREFUSED 127.0.0.1:7480' });

/** The client's real monitor, with a service that is up or down; each try is one request reported to it. */
function setup() {
  const clock = new ManualClock();
  const monitor = new ConnectivityMonitor('http://127.0.0.1:7480', clock);
  const service = { up: false, tries: [] as number[] };
  const reachability = new ServiceReachability({
    state: () => monitor.state,
    retryNow: () => {
      monitor.retryNow();
    },
    tryOnce: async () => {
      service.tries.push(clock.now());
      await monitor.ready(undefined, 'fail');
      if (service.up) monitor.reached();
      else monitor.failed(refused());
    },
    clock,
  });
  const changes: string[] = [];
  monitor.listen((change) => {
    changes.push(change.state);
    reachability.changed();
  });
  return { clock, monitor, service, reachability, changes };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the app’s view of the service’s reachability (over the API client’s monitor)', () => {
  it('reads online while requests get through, and says nothing until one fails', () => {
    const { reachability, clock } = setup();
    expect(reachability.status()).toEqual({ online: true, since: null, nextTryAt: null, error: null });
    expect(clock.pendingTimers).toBe(0);
  });

  it('shows offline with since, next try and the failure, from the monitor’s own state', () => {
    const { reachability, monitor, clock } = setup();
    const start = clock.now();
    monitor.failed(refused());
    expect(reachability.status()).toEqual({
      online: false,
      since: new Date(start).toISOString(),
      nextTryAt: new Date(start + 2_000).toISOString(),
      error: 'connect ECONNREFUSED 127.0.0.1:7480',
    });
  });

  it('keeps trying on the monitor’s schedule while nothing else asks, and stops once the service answers', async () => {
    const { reachability, monitor, clock, service, changes } = setup();
    const start = clock.now();
    monitor.failed(refused());
    for (let i = 0; i < 4; i++) {
      await clock.advanceAsync(30_000, 500);
      await settle();
    }
    // One try at each step of the monitor's schedule (2, 5, 10, 20, 30 s…), not one per second.
    expect(service.tries.map((at) => at - start).slice(0, 4)).toEqual([2_000, 7_000, 17_000, 37_000]);
    service.up = true;
    await clock.advanceAsync(30_000, 500);
    await settle();
    expect(reachability.status().online).toBe(true);
    expect(changes).toEqual(['unreachable', 'reachable']);
    const tries = service.tries.length;
    await clock.advanceAsync(120_000, 1_000);
    expect(service.tries).toHaveLength(tries);
    expect(clock.pendingTimers).toBe(0);
  });

  it('tries at once when asked (sync now), without waiting for the scheduled try', async () => {
    const { reachability, monitor, service, clock } = setup();
    monitor.failed(refused());
    await clock.advanceAsync(2_000, 500);
    await settle();
    expect(service.tries).toHaveLength(1);
    service.up = true;
    await reachability.retryNow();
    expect(service.tries).toHaveLength(2);
    expect(reachability.status().online).toBe(true);
  });

  it('asks nothing when online, and nothing more once closed', async () => {
    const { reachability, monitor, service, clock } = setup();
    await reachability.retryNow();
    expect(service.tries).toHaveLength(0);
    monitor.failed(refused());
    reachability.close();
    expect(reachability.open).toBe(false);
    await clock.advanceAsync(120_000, 1_000);
    await reachability.retryNow();
    expect(service.tries).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('never tries twice within a second when a try leaves the schedule where it was', async () => {
    const clock = new ManualClock();
    const monitor = new ConnectivityMonitor('http://127.0.0.1:7480', clock);
    let tries = 0;
    const reachability = new ServiceReachability({
      state: () => monitor.state,
      retryNow: () => undefined,
      // A failure that may have reached the service (a reset mid-request) tells the monitor nothing.
      tryOnce: () => {
        tries += 1;
        return Promise.reject(new ApiError({ code: 'NETWORK', message: 'reset', maybeApplied: true }));
      },
      clock,
    });
    monitor.failed(refused());
    reachability.changed();
    await clock.advanceAsync(10_000, 100);
    expect(tries).toBeLessThanOrEqual(9);
    expect(tries).toBeGreaterThanOrEqual(8);
  });
});

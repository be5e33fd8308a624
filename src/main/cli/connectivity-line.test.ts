import { describe, expect, it } from 'vitest';
import { ConnectivityLine } from './connectivity-line.js';
import { recordingIo } from '../../../test/support/fake-io.js';
import type { Connectivity } from '../../shared/sync/connectivity.js';

const server = 'http://127.0.0.1:9';
const down = (nextTryAt: number): Connectivity => ({ state: 'unreachable', server, since: 0, nextTryAt, code: 'NETWORK', detail: 'ECONNREFUSED' });

describe('ConnectivityLine', () => {
  it('prints one line per change in a pipe, and quiets the symptoms only while unreachable', () => {
    const io = recordingIo();
    const line = new ConnectivityLine(io, () => down(30_000), () => 0);
    expect(line.quiets('NETWORK: POST http://127.0.0.1:9/x failed')).toBe(false);
    line.changed(down(30_000));
    expect(line.quiets('NETWORK: POST http://127.0.0.1:9/x failed')).toBe(true);
    expect(line.quiets("could not read the service's changes: GET …")).toBe(true);
    expect(line.quiets('LOCAL_PERMISSION: a.txt')).toBe(false);
    line.changed({ state: 'reachable', server });
    line.close();
    expect(io.errLines).toEqual([`Can't reach the service at ${server} — retrying (next try in 30 s)`, `The service at ${server} is reachable again.`]);
  });

  it('draws in place on a terminal and keeps notes above it', () => {
    const io = recordingIo();
    const live: string[] = [];
    io.live = (text) => void live.push(text);
    const line = new ConnectivityLine(io, () => down(12_000), () => 0);
    line.changed(down(12_000));
    line.note(() => io.err('a note'));
    line.close();
    expect(live).toEqual([`Can't reach the service at ${server} — retrying (next try in 12 s)`, '', `Can't reach the service at ${server} — retrying (next try in 12 s)`, '']);
    expect(io.errLines).toEqual(['a note']);
  });
});

import { describe, expect, it } from 'vitest';
import type { AssetApi, PutPartRequest } from '../api/index.js';
import { incrementsOf, reportingIncrements } from './byte-increments.js';

describe('incrementsOf', () => {
  it('turns one request’s running totals into increments, a new count (a retry) starting over', () => {
    const seen: number[] = [];
    const listener = incrementsOf((bytes) => seen.push(bytes));
    for (const total of [100, 250, 250, 400, 50, 300]) listener(total);
    expect(seen).toEqual([100, 150, 150, 50, 250]);
  });
});

describe('reportingIncrements', () => {
  it('gives each part of an upload its own count, so parts sent at once add up to the file', async () => {
    const listeners: PutPartRequest[] = [];
    const fake: Partial<AssetApi> = {
      putPart: async (request) => {
        listeners.push(request);
        return { eTag: `e${listeners.length}` };
      },
    };
    const api = reportingIncrements(fake as AssetApi);
    const seen: number[] = [];
    await api.putPart({ url: 'http://x/1', filePath: '/f', start: 0, end: 300, onProgress: (bytes) => seen.push(bytes) });
    await api.putPart({ url: 'http://x/2', filePath: '/f', start: 300, end: 600, onProgress: (bytes) => seen.push(bytes) });
    const [first, second] = listeners.map((request) => request.onProgress);
    // Interleaved, as parts in flight together report.
    for (const [report, total] of [[first, 100], [second, 100], [first, 200], [second, 300], [first, 300]] as const) report?.(total);
    expect(seen.reduce((sum, bytes) => sum + bytes, 0)).toBe(600);
  });

  it('leaves a download without a listener as it was, and counts one with a listener in increments', async () => {
    const calls: unknown[] = [];
    const fake: Partial<AssetApi> = {
      downloadToFile: async (_url, _temp, options) => {
        calls.push(options);
        options?.onProgress?.(10);
        options?.onProgress?.(25);
        return { size: 25, resumed: false, etag: undefined };
      },
    };
    const api = reportingIncrements(fake as AssetApi);
    await api.downloadToFile('http://x/d', '/tmp/d.part');
    await api.downloadToFile('http://x/d', '/tmp/d.part', { resumeFrom: 5 });
    const seen: number[] = [];
    await api.downloadToFile('http://x/d', '/tmp/d.part', { md5: true, onProgress: (bytes) => seen.push(bytes) });
    expect(calls[0]).toBeUndefined();
    expect(calls[1]).toEqual({ resumeFrom: 5 });
    expect(calls[2]).toMatchObject({ md5: true });
    expect(seen).toEqual([10, 15]);
  });
});

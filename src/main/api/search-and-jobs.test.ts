import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './create-api-client.js';
import { errorBody, instantClock, scriptedTokens, sendJson, startFakeServer } from '../../../test/support/api-client-fakes.js';

describe('jobs and scrolls against a scripted server', () => {
  it('polls with a growing interval and turns a FAILED job into an ApiError with its code', async () => {
    let polls = 0;
    const server = await startFakeServer((request, response) => {
      if (request.method === 'POST') sendJson(response, 200, { result: { id: 'j1', type: 'AssetDownloadBatchJob', state: 'QUEUED', progress: 0, dateCreated: '' } });
      else if (++polls < 4) sendJson(response, 200, { result: { id: 'j1', state: 'RUNNING', progress: 0 } });
      else sendJson(response, 200, { result: { id: 'j1', state: 'FAILED', progress: 0.75, error: errorBody(500, 'STORAGE_OFFLINE', 'the blob store is gone') } });
    });
    const clock = instantClock();
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock, env: {}, jobPoll: { initialMs: 100, factor: 2, maxMs: 300 } });
    try {
      const error = await api.requestDownloads([{ batchItemId: 'd', assetId: 'a', assetFileId: null }]).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'STORAGE_OFFLINE', retryable: true });
      expect((error as Error).message).toContain('the blob store is gone');
      expect(clock.sleeps).toEqual([100, 200, 300, 300]);
      expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        'POST /asset-download-batch-jobs',
        'GET /asset-download-batch-jobs/j1',
        'GET /asset-download-batch-jobs/j1',
        'GET /asset-download-batch-jobs/j1',
        'GET /asset-download-batch-jobs/j1',
      ]);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('keeps polling at most movingMaxMs apart while the job reports progress, and hands each item over once as it appears', async () => {
    const item = (name: string) => ({ url: `http://127.0.0.1:1/${name}`, filename: name, size: 1, checksum: 'c'.repeat(32), contentType: 'image/jpeg' });
    // Still for three polls, then one item per poll, then done.
    const answers = [
      { state: 'RUNNING', progress: 0 },
      { state: 'RUNNING', progress: 0 },
      { state: 'RUNNING', progress: 0 },
      { state: 'RUNNING', progress: 1 / 3, successes: { '0': item('a.jpg') } },
      { state: 'RUNNING', progress: 2 / 3, successes: { '0': item('a.jpg'), '1': { result: item('b.jpg') } } },
      { state: 'COMPLETED', progress: 1, successes: { '0': item('a.jpg'), '1': item('b.jpg'), '2': item('c.jpg') } },
    ];
    let polls = 0;
    const server = await startFakeServer((request, response) => {
      if (request.method === 'POST') sendJson(response, 200, { result: { id: 'j3', type: 'AssetDownloadBatchJob', state: 'QUEUED', progress: 0, dateCreated: '' } });
      else sendJson(response, 200, { result: { id: 'j3', ...answers[polls++] } });
    });
    const clock = instantClock();
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock, env: {}, jobPoll: { initialMs: 100, factor: 2, maxMs: 1000, movingMaxMs: 150 } });
    try {
      const seen: string[] = [];
      const outcome = await api.requestDownloads(
        ['0', '1', '2'].map((batchItemId) => ({ batchItemId, assetId: `a${batchItemId}`, assetFileId: null })),
        { onItem: (key, downloaded) => seen.push(`${key} ${downloaded.filename} after poll ${polls}`) },
      );
      // Still: 100, 200, 400, 800; then moving: capped at 150 while it moves.
      expect(clock.sleeps).toEqual([100, 200, 400, 800, 150, 150]);
      expect(seen).toEqual(['0 a.jpg after poll 4', '1 b.jpg after poll 5', '2 c.jpg after poll 6']);
      expect(Object.keys(outcome.successes)).toEqual(['0', '1', '2']);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('counts a held poll toward the wait and never backs off after one: a service that holds polls is asked again at once', async () => {
    const item = (name: string) => ({ url: `http://127.0.0.1:1/${name}`, filename: name, size: 1, checksum: 'c'.repeat(32), contentType: 'image/jpeg' });
    const clock = instantClock();
    const answers = [
      { state: 'RUNNING', progress: 0.5, successes: { '0': item('a.jpg') } },
      { state: 'RUNNING', progress: 0.5, successes: { '0': item('a.jpg') } },
      { state: 'COMPLETED', progress: 1, successes: { '0': item('a.jpg'), '1': item('b.jpg') } },
    ];
    // Each poll held for as long as the service's hold (200 ms), then one answered at once.
    const held = [200, 200, 0];
    let polls = 0;
    const server = await startFakeServer((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, 200, { result: { id: 'j4', type: 'AssetDownloadBatchJob', state: 'QUEUED', progress: 0, dateCreated: '' } });
        return;
      }
      clock.advance(held[polls] ?? 0);
      sendJson(response, 200, { result: { id: 'j4', ...answers[polls++] } });
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock, env: {}, jobPoll: { initialMs: 100, factor: 2, maxMs: 1000, movingMaxMs: 150 } });
    try {
      await api.requestDownloads(['0', '1'].map((batchItemId) => ({ batchItemId, assetId: `a${batchItemId}`, assetFileId: null })), { onItem: () => undefined });
      // 100 before the first poll; then none: each poll held longer than movingMaxMs (150) is followed
      // at once, whether the job moved (the first) or not (the second), never backed off.
      expect(clock.sleeps).toEqual([100, 0, 0]);
      expect(polls).toBe(3);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('asks again at once after an answer that shows the job moved when the service says it holds polls, and waits after one that does not', async () => {
    const item = (name: string) => ({ url: `http://127.0.0.1:1/${name}`, filename: name, size: 1, checksum: 'c'.repeat(32), contentType: 'image/jpeg' });
    const clock = instantClock();
    // Every answer comes at once (woken by a move, or a service that answers still jobs at once too).
    const answers = [
      { state: 'RUNNING', progress: 1 / 3, successes: { '0': item('a.jpg') }, pollHoldMs: 250 },
      { state: 'RUNNING', progress: 1 / 3, successes: { '0': item('a.jpg') }, pollHoldMs: 250 },
      { state: 'RUNNING', progress: 2 / 3, successes: { '0': item('a.jpg'), '1': item('b.jpg') }, pollHoldMs: 250 },
      { state: 'COMPLETED', progress: 1, successes: { '0': item('a.jpg'), '1': item('b.jpg'), '2': item('c.jpg') } },
    ];
    let polls = 0;
    const server = await startFakeServer((request, response) => {
      if (request.method === 'POST') sendJson(response, 200, { result: { id: 'j5', type: 'AssetDownloadBatchJob', state: 'QUEUED', progress: 0, dateCreated: '', pollHoldMs: 250 } });
      else sendJson(response, 200, { result: { id: 'j5', ...answers[polls++] } });
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock, env: {}, jobPoll: { initialMs: 100, factor: 2, maxMs: 1000, movingMaxMs: 150 } });
    try {
      const seen: string[] = [];
      await api.requestDownloads(
        ['0', '1', '2'].map((batchItemId) => ({ batchItemId, assetId: `a${batchItemId}`, assetFileId: null })),
        { onItem: (key) => seen.push(key) },
      );
      // 100 before the first poll; at once after it (it moved); after the second (still, and answered
      // at once: not held) the backed-off wait, 150 × 2; at once after the third (moved again).
      expect(clock.sleeps).toEqual([100, 0, 300, 0]);
      expect(seen).toEqual(['0', '1', '2']);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('gives up on a job that never finishes with JOB_TIMEOUT', async () => {
    const server = await startFakeServer((_request, response) => sendJson(response, 200, { result: { id: 'j2', state: 'RUNNING' } }));
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {}, jobPoll: { initialMs: 1000, maxMs: 60_000, timeoutMs: 10 * 60_000 } });
    try {
      await expect(api.transitionLifecycle({ type: 'BY_IDS', assetIds: ['a'] }, 'LIVE')).rejects.toMatchObject({ code: 'JOB_TIMEOUT', retryable: true });
    } finally {
      api.close();
      await server.close();
    }
  });

  it('always continues a scroll with the latest scrollId and stops at an empty page when the server says no total', async () => {
    const server = await startFakeServer((request, response) => {
      const body = JSON.parse(request.body.toString() || '{}');
      if (request.url === '/asset-scroll-searches') sendJson(response, 200, { results: [scrolled('a')], scrollId: 's1' });
      else if (body.scrollId === 's1') sendJson(response, 200, { results: [scrolled('b'), scrolled('c')], scrollId: 's2' });
      else if (body.scrollId === 's2') sendJson(response, 200, { results: [], scrollId: 's3' });
      else sendJson(response, 404, errorBody(404, 'SCROLL_EXPIRED'));
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {} });
    try {
      const ids: string[] = [];
      for await (const page of api.scrollAssets({ criterion: { type: 'MATCH_ALL' }, sorts: [] })) ids.push(...page.results.map(({ result }) => result.id));
      expect(ids).toEqual(['a', 'b', 'c']);
      expect(server.requests.map((request) => JSON.parse(request.body.toString()).scrollId)).toEqual([undefined, 's1', 's2']);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('asks for the next scroll page while the caller reads this one, and drops it when the caller stops', async () => {
    const server = await startFakeServer((request, response) => {
      const body = JSON.parse(request.body.toString() || '{}');
      if (request.url === '/asset-scroll-searches') sendJson(response, 200, { results: [scrolled('a')], scrollId: 's1' });
      else if (body.scrollId === 's1') sendJson(response, 200, { results: [scrolled('b')], scrollId: 's2' });
      else sendJson(response, 200, { results: [scrolled('c')], scrollId: 's3' });
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {} });
    try {
      const seen: Array<{ id: string; asked: number }> = [];
      for await (const page of api.scrollAssets({ criterion: { type: 'MATCH_ALL' }, sorts: [] })) {
        const id = page.results[0]?.result.id ?? '';
        // While the caller holds a page, the one after it is already on its way to the server.
        await vi.waitFor(() => expect(server.requests.length).toBe(seen.length + 2));
        seen.push({ id, asked: server.requests.length });
        if (id === 'b') break;
      }
      expect(seen).toEqual([{ id: 'a', asked: 2 }, { id: 'b', asked: 3 }]);
      expect(server.requests.map((request) => JSON.parse(request.body.toString()).scrollId)).toEqual([undefined, 's1', 's2']);
    } finally {
      api.close();
      await server.close();
    }
  });

  it('ends a scroll at a short page that reaches the total, but not at short pages of a server that caps their size', async () => {
    // Pages of one asset where two were asked for: short every time, so only the total ends the scroll.
    const pages: Record<string, { ids: string[]; next: string }> = { '': { ids: ['a'], next: 's1' }, s1: { ids: ['b'], next: 's2' }, s2: { ids: ['c'], next: 's3' }, s3: { ids: [], next: 's4' } };
    const server = await startFakeServer((request, response) => {
      const body = JSON.parse(request.body.toString() || '{}');
      const page = pages[request.url === '/asset-scroll-searches' ? '' : String(body.scrollId)];
      if (page === undefined) sendJson(response, 404, errorBody(404, 'SCROLL_EXPIRED'));
      else sendJson(response, 200, { results: page.ids.map(scrolled), totalResults: 3, scrollId: page.next });
    });
    const api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), env: {} });
    try {
      const ids: string[] = [];
      for await (const page of api.scrollAssets({ criterion: { type: 'MATCH_ALL' }, sorts: [], pageSize: 2 })) ids.push(...page.results.map(({ result }) => result.id));
      expect(ids).toEqual(['a', 'b', 'c']);
      // The third page reaches the total: the empty fourth is not asked for.
      expect(server.requests.map((request) => JSON.parse(request.body.toString()).scrollId)).toEqual([undefined, 's1', 's2']);
    } finally {
      api.close();
      await server.close();
    }
  });
});

function scrolled(id: string) {
  return {
    result: { id, metadata: { values: {} }, currentAssetFile: null, lifecycleStatus: { state: 'LIVE' }, dateLastModified: '2026-01-01T00:00:00.000Z' },
    permittedActions: [],
  };
}

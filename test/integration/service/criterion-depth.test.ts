import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestService, type TestService } from '../../support/test-service.js';
import { MAX_CRITERION_DEPTH } from '../../../src/service/search/criterion-limits.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';

/** `levels` NOTs around MATCH_ALL as JSON, spelled out: serialising that deep overflows the stack here. */
function nested(levels: number): string {
  return `${'{"type":"NOT","criterion":'.repeat(levels - 1)}{"type":"MATCH_ALL"}${'}'.repeat(levels - 1)}`;
}

/** A marker in a body that stands for the deep criterion. */
const DEEP = '@deep@';

describe('every route that takes a criterion bounds its depth with one limit', () => {
  let service: TestService;
  let savedSearchId: string;
  let token: string;
  beforeAll(async () => {
    service = await startTestService();
    token = await service.token();
    const created = await service.api('POST', '/saved-searches', { name: 'everything', criterion: { type: 'MATCH_ALL' }, sorts: [] });
    expect(created.status).toBe(200);
    savedSearchId = String(created.body.result?.id ?? created.body.id);
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('answers a criterion nested 5,000 levels with 400 INVALID_CRITERION and the depth limit, never 500', async () => {
    const criterion = DEEP;
    const selector = { type: 'BY_CRITERION', criterion };
    const { accounts, fields } = service.running.ctx;
    const keywordsId = fields.byRole(accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '', 'KEYWORDS')?.id ?? '';
    const edit = [{ fieldId: keywordsId, type: 'BY_VALUES', values: ['deep'] }];
    // Route → body: each search, saved search and selector-based job that accepts a criterion.
    const routes: [string, string, Record<string, unknown>, string?][] = [
      ['POST', '/asset-searches', { from: 0, pageSize: 10, criterion, sorts: [] }],
      ['POST', '/asset-scroll-searches', { pageSize: 10, criterion, sorts: [] }],
      ['POST', '/field-option-searches', { criterion }],
      ['POST', '/collection-searches', { criterion, sorts: [] }],
      ['POST', '/asset-share-searches', { criterion, sorts: [] }],
      ['POST', '/collection-share-searches', { criterion, sorts: [] }],
      ['POST', '/preset-transformation-searches', { criterion, sorts: [] }],
      ['POST', '/asset-download-event-searches', { criterion }],
      ['POST', '/saved-searches', { name: 'deep', criterion, sorts: [] }],
      ['PATCH', `/saved-searches/${savedSearchId}`, { criterion }, '/saved-searches/:id'],
      ['POST', '/asset-lifecycle-transition-batch-jobs', { selector, targetState: 'LIVE' }],
      ['POST', '/asset-deletion-batch-jobs', { selector }],
      ['POST', '/asset-metadata-edit-batch-jobs', { selector, metadataFieldValueUpdates: edit }],
      ['POST', '/asset-metadata-suggestion-batch-jobs', { selector }],
    ];
    // Every route whose declared body takes a criterion (or a selector holding one) has its case here.
    const declared = service.running.routes
      .filter((route) => route.body instanceof z.ZodObject && ('criterion' in route.body.shape || 'selector' in route.body.shape))
      .map((route) => `${route.method} ${route.url}`);
    expect(routes.map(([method, path, , pattern]) => `${method} ${pattern ?? path}`).sort()).toEqual([...new Set(declared)].sort());

    const answers: Record<string, unknown> = {};
    for (const [method, path, body] of routes) {
      const text = JSON.stringify(body).replace(`"${DEEP}"`, nested(5000));
      const response = await fetch(`${service.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: text });
      const answer = { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
      answers[`${method} ${path}`] = { status: answer.status, code: answer.body.code, limited: String(answer.body.message).includes(`nested deeper than ${MAX_CRITERION_DEPTH} levels`) };
    }
    const expected = Object.fromEntries(routes.map(([method, path]) => [`${method} ${path}`, { status: 400, code: 'INVALID_CRITERION', limited: true }]));
    expect(answers).toEqual(expected);
  });
});

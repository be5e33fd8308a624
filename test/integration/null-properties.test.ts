/**
 * `null` on an optional request property reads as "not given" (API.md §1), on every route: the routes
 * and their body schemas come from the service's own route table (RunningService.routes), so a new route
 * is walked too. Each optional property, at any depth, is sent once as `null` and once left out, inside
 * the same scaffold; the answers must be the same (unless the schema gives `null` its own meaning), and
 * never a 500 or a 400 that names the property.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../support/test-service.js';
import { ABSENT, optionalProperties } from '../support/optional-properties.js';

/** Routes that take a body but not a JSON one, and why. */
const NO_JSON_BODY: Record<string, string> = {
  'POST /asset-staging-workflow-transition-batch-jobs': 'the V1 path, refused whatever the body',
  'POST /reference-image-uploads': 'takes no body (SERVICE-SPEC §4.2)',
  'POST /external-app-sso-tokens': 'takes no body: the token is for the current user',
};

/** The parts of an answer that must not depend on null versus absent. */
function outcome(answer: ApiAnswer): unknown {
  const body: unknown = answer.body;
  if (answer.status === 200 || typeof body !== 'object' || body === null) return { status: answer.status };
  const { code, message, error } = body as Record<string, unknown>;
  return { status: answer.status, code, message, error };
}

describe('null on every optional request property', () => {
  let service: TestService;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    service = await startTestService();
    const field = await service.api('POST', '/fields', { name: 'Colour', hasFixedOptions: true });
    ids['/fields/:id'] = field.body.result.id;
    const option = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'o', fieldId: field.body.result.id, value: 'Red' }] });
    ids['/field-options/:id'] = option.body.successes.o.result.id;
    const assets = await service.api('POST', '/assets-creations', { count: 1 });
    ids['/assets/:id'] = assets.body.results[0].result.id;
    ids['/assets/:id/saved-crop-areas'] = assets.body.results[0].result.id;
    const area = await service.api('POST', `/assets/${assets.body.results[0].result.id}/saved-crop-areas`, { name: 'Face', x: 0, y: 0, width: 10, height: 10 });
    ids['/asset-saved-crop-areas/:id'] = area.body.result.id;
    const collection = await service.api('POST', '/collections', { name: 'Nulls' });
    for (const route of ['/collections/:id', '/collections/:id/assets', '/collections/:id/asset-removals']) ids[route] = collection.body.result.id;
    const adminId = service.running.ctx.accounts.userByEmail(service.running.ctx.config.adminEmail)?.id ?? '';
    const assetShare = await service.api('POST', '/asset-shares', { assetIds: [assets.body.results[0].result.id] });
    ids['/asset-shares/:id'] = assetShare.body.result.id;
    const collectionShare = await service.api('POST', '/collection-shares', { collectionId: collection.body.result.id });
    ids['/collection-shares/:id'] = collectionShare.body.result.id;
    const foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const folder = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'f', fieldId: foldersId, value: 'Portal' }] });
    const portal = await service.api('POST', '/portals', { name: 'Nulls', folderIds: [folder.body.successes.f.result.id] });
    ids['/portals/:id'] = portal.body.result.id;
    const link = await service.api('POST', '/guest-uploads', { name: 'Nulls', folderId: folder.body.successes.f.result.id });
    ids['/guest-uploads/:id'] = link.body.result.id;
    for (const route of ['/public/guest-uploads/:key/uploads', '/public/guest-uploads/:key/completions']) ids[route] = link.body.result.key;
    ids['/collections/:id/collaborators/:userId'] = `/collections/${collection.body.result.id}/collaborators/${adminId}`;
    const group = await service.api('POST', '/groups', { name: 'Nulls' });
    ids['/groups/:id'] = group.body.result.id;
    ids['/assets/:id/comments'] = assets.body.results[0].result.id;
    const comment = await service.api('POST', `/assets/${assets.body.results[0].result.id}/comments`, { text: 'Nulls' });
    ids['/comments/:id'] = comment.body.result.id;
    const saved = await service.api('POST', '/saved-searches', { name: 'Nulls', criterion: { type: 'MATCH_ALL' } });
    for (const route of ['/saved-searches/:id', '/saved-searches/:id/results']) ids[route] = saved.body.result.id;
    // Issue 21's resources.
    ids['/field-views/:id'] = (await service.api('POST', '/field-views', { name: 'View', fieldIds: [] })).body.result.id;
    await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: 'STAGED' });
    ids['/search-filter-view/search-filters/:id'] = 'STAGED';
    ids['/subscription-intents/:id'] = (await service.api('POST', '/subscription-intents', { plan: 'TIERED', tier: 'STARTER' })).body.result.id;
    const accountId = service.running.ctx.accounts.bySubdomain('local')?.id ?? '';
    ids['/account-terms-and-conditions/:id'] = accountId;
    ids['/admin/accounts/:accountId/entities/:id/quota-override'] = accountId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  /** The URL to call for a route: path parameters become a real resource of that route. */
  const urlOf = (route: string): string => {
    if (!route.includes(':')) return route;
    const id = ids[route];
    if (id === undefined) throw new Error(`No resource for ${route}: add one in beforeAll so its body is really parsed.`);
    // Routes with several parameters name their whole URL.
    if (id.startsWith('/')) return id;
    // The quota override has two parameters: the account's id, then the entity id.
    if (route === '/admin/accounts/:accountId/entities/:id/quota-override') return `/admin/accounts/${encodeURIComponent(id)}/entities/field/quota-override`;
    return route.replace(/:[^/]+/, encodeURIComponent(id));
  };

  it('finds the routes and their body schemas in the route table', () => {
    for (const url of Object.values(ids)) expect(url).toEqual(expect.any(String));
    const undeclared = service.running.routes
      .filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method) && route.body === undefined && !route.rawBody)
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => NO_JSON_BODY[route] === undefined);
    expect(undeclared).toEqual([]);
    expect(service.running.routes.filter((route) => route.body !== undefined).length).toBeGreaterThanOrEqual(20);
  });

  it('reads each one as absent: the same answer, never a 500 or a 400 naming it', async () => {
    const checked: string[] = [];
    for (const route of service.running.routes) {
      if (route.body === undefined) continue;
      for (const property of optionalProperties(route.body)) {
        const where = `${route.method} ${route.url} ${property.path}`;
        const url = urlOf(route.url);
        const withNull = await service.api(route.method, url, property.body(null));
        expect(withNull.status, `${where}: ${withNull.text}`).toBeLessThan(500);
        if (!property.required) expect(withNull.text, where).not.toContain(`${property.path}:`);
        if (!property.nullIsValue) {
          const without = await service.api(route.method, url, property.body(ABSENT));
          expect(outcome(withNull), where).toEqual(outcome(without));
        }
        checked.push(where);
      }
    }
    // Spot checks that the walk reaches nested properties and the ones the issue names.
    expect(checked).toEqual(
      expect.arrayContaining([
        'POST /asset-uploads partSize',
        'POST /asset-uploads partUrlsRequest.uploadId',
        'POST /asset-uploads partUrlsRequest.urlRequests.0.contentMd5',
        'POST /asset-and-upload-batch-jobs items.0.partSize',
        'POST /asset-searches from',
        'POST /asset-searches pageSize',
        'POST /asset-metadata-edit-batch-jobs metadataFieldValueUpdates.0.operation',
        'POST /field-option-searches sorts',
        'POST /asset-searches sorts',
        'POST /asset-deletion-batch-jobs selector.criterion',
        'PATCH /field-options/:id parentId',
        'POST /preset-transformation-searches pageSize',
        'POST /preset-transformation-searches sorts.0.order',
        'PATCH /asset-saved-crop-areas/:id name',
      ]),
    );
  });
});

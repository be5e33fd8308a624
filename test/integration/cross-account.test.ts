/**
 * No data crosses accounts (issue 21): account A gets one of every entity through the API, then account
 * B's admin calls every route of the service's own route table (RunningService.routes, so a new route is
 * walked too) with A's ids. Routes with an id answer 404 (403 where only staff may call them, or where a
 * signed URL is needed) and show nothing of A; lists and searches show none of A's ids or names; routes
 * whose body names A's ids refuse them; afterwards every entity of A reads back as it was. A route the
 * sweep has no URL or body for fails the test, so a new route cannot go unchecked. Account-independent
 * routes are skipped by name, with the reason; the public share, portal and guest upload routes are
 * checked on their own: reachable by their key only, showing only what the link grants.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { finishedJob, seedAccount, type SeededAccount } from '../support/account-seed.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../support/smtp-server.js';
import { signUpAccount } from '../support/sign-up-account.js';

/** Every name A's entities get carries this, so one text search finds any of them in an answer. */
const MARKER = 'alephzed';

/** Routes that do not belong to an account, and why they are not swept with B's token. */
const ACCOUNT_INDEPENDENT: Record<string, string> = {
  'GET /health': 'liveness, the same for everyone',
  'GET /.well-known/jwks.json': 'the signing keys, public by OAuth',
  'GET /.well-known/oauth-authorization-server': 'OAuth metadata, public',
  'GET /.well-known/asset-sync': 'the service features, public',
  'GET /authorize': 'the sign-in page: the account is chosen by signing in, before there is a token',
  'POST /authorize': 'the sign-in form (oauth-flow tests cover which account a sign-in reaches)',
  'POST /oauth/token': 'token exchange by code or refresh token, bound to the client, not to a bearer token',
  'POST /oauth/revoke': 'ends a sign-in by its token, bound to the client (oauth-revoke tests cover another client\'s token)',
  'POST /accounts': 'sign-up makes a new account (unauthenticated, §4.3)',
  'POST /account-confirmations': 'confirms a sign-up with the code mailed to its address, making a new account (unauthenticated)',
  'POST /subdomain-availability-checks': 'answers whether a subdomain is taken: public by design (§4.3)',
  'POST /account-invite-requests': 'unauthenticated request to join an account by its subdomain (§4.3)',
  'POST /publicly-available-account-data-searches': "an account's public data by subdomain, unauthenticated (§4.3)",
};

/**
 * Routes for visitors without an account, reached by a link's key: B's token means nothing there. The
 * public test below checks them with A's keys and with ids that are not keys.
 */
const PUBLIC_BY_KEY = /^\/public\//;

/** What B must be answered on A's ids, where it is not 404. */
const EXPECTED_STATUS: Record<string, number> = {
  // Staff-only (account-admin-routes.ts): B's admin is not staff.
  'DELETE /staff-members/:id': 403,
  'GET /admin/accounts/:accountId/entities/:id/quota-override': 403,
  'HEAD /admin/accounts/:accountId/entities/:id/quota-override': 403,
  'PUT /admin/accounts/:accountId/entities/:id/quota-override': 403,
  // Terms and conditions are read without a token (§4.3): anyone may read any account's terms.
  'GET /account-terms-and-conditions/:id': 200,
  'HEAD /account-terms-and-conditions/:id': 200,
  // The V1 path answers 400 "use the V2 path" for any id, before any lookup.
  'GET /asset-staging-workflow-transition-batch-jobs/:id': 400,
  'HEAD /asset-staging-workflow-transition-batch-jobs/:id': 400,
};

/** Signed URLs carry their credential in the query; B's bearer token opens none of them (403 INVALID_SIGNATURE). */
const SIGNED = /^\/(files|previews|download-zips|upload-parts|reference-images)\//;

describe('no data crosses accounts', () => {
  let service: TestService;
  let smtp: TestSmtp;
  let a: SeededAccount;
  let bToken: string;
  let bUserId: string;
  let bKeywords: string;
  /** A's answers to every read-back GET, before B's sweep. */
  const before = new Map<string, string>();

  const mintB = (): Promise<string> => service.running.ctx.tokens.issue({ sub: bUserId, scope: 'subdomain:bravo' }, 3600);

  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
    a = await seedAccount(service, MARKER);
    bUserId = (await signUpAccount(service, smtp, { subdomain: 'bravo', name: 'Bravo', email: 'boss@bravo.test', password: 'a long enough password' })).adminUserId;
    bToken = await mintB();
    const bFields = await service.api('GET', '/fields', undefined, bToken);
    bKeywords = bFields.body.find((field: { name: string }) => field.name === 'Keywords').id;
    for (const path of a.readBack) before.set(path, await readAsA(path));
  }, 180_000);
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });
  // The sweep reaches B's own security settings, and a change there revokes B's tokens (as it should):
  // each test starts with a fresh one, as a client would refresh.
  beforeEach(async () => {
    bToken = await mintB();
  });

  /** An answer with signed URLs' changing query (expiry, signature) blanked, so two reads compare. */
  const stable = (text: string): string => text.replace(/([?&](?:expires|signature)=)[^&"\\]*/g, '$1…');
  const readAsA = async (path: string): Promise<string> => {
    const answer = await service.api('GET', path);
    return `${answer.status} ${stable(answer.text)}`;
  };

  /** What in an answer to B belongs to A: a marked name, or one of A's ids B did not send itself. */
  const leaksIn = (text: string, sent: string): string[] => {
    const found = [...a.ids].filter((id) => text.includes(id) && !sent.includes(id));
    if (text.toLowerCase().includes(MARKER)) found.push(`a name with "${MARKER}": ${text.slice(Math.max(0, text.toLowerCase().indexOf(MARKER) - 80), text.toLowerCase().indexOf(MARKER) + 40)}`);
    return found;
  };

  /** Calls as B. Event streams are read to their first event, then closed. */
  const asB = async (method: string, path: string, body?: unknown): Promise<{ status: number; text: string; body: any }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${bToken}` };
    let payload: string | undefined;
    if (typeof body === 'string') {
      headers['content-type'] = 'application/octet-stream';
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const abort = new AbortController();
    let response = await fetch(`${service.url}${path}`, { method, headers, body: payload ?? null, signal: abort.signal, redirect: 'manual' });
    if (response.status === 401 && (await response.clone().text()).includes('TOKEN_REVOKED')) {
      // An earlier call of the sweep changed B's security settings: refresh, as a client does, and ask again.
      bToken = await mintB();
      headers.authorization = `Bearer ${bToken}`;
      response = await fetch(`${service.url}${path}`, { method, headers, body: payload ?? null, signal: abort.signal, redirect: 'manual' });
    }
    let text: string;
    if (method === 'HEAD') {
      // No body comes; an event stream's connection would stay open.
      text = '';
      abort.abort();
    } else if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body !== null) {
      const reader = response.body.getReader();
      const first = await reader.read();
      text = new TextDecoder().decode(first.value);
      abort.abort();
    } else {
      text = await response.text();
    }
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (an event stream, a HEAD answer): the text is what is checked.
    }
    return { status: response.status, text, body: parsed };
  };

  /** The `id:` of an event stream's first event (its cursor), read as `token`. */
  const firstEventOf = async (path: string, token: string): Promise<string> => {
    const abort = new AbortController();
    const response = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    abort.abort();
    const id = /^id: (.+)$/m.exec(new TextDecoder().decode(first?.value))?.[1];
    if (id === undefined) throw new Error(`no event from ${path}`);
    return id;
  };

  /** Bodies for routes with an id: valid, so that only the id decides the answer. */
  const idRouteBodies = (): Record<string, unknown> => ({
    'PATCH /fields/:id': { name: 'Taken by B' },
    'PATCH /field-options/:id': { value: 'Taken by B' },
    'PATCH /assets/:id': { filename: 'taken-by-b.bin' },
    'POST /assets/:id/saved-crop-areas': { name: 'B', x: 0, y: 0, width: 1, height: 1 },
    'PATCH /asset-saved-crop-areas/:id': { name: 'B' },
    'PATCH /collections/:id': { name: 'B' },
    'POST /collections/:id/assets': { assetIds: [a.named.otherAsset] },
    'POST /collections/:id/asset-removals': { assetIds: [a.named.asset] },
    'PUT /collections/:id/collaborators/:userId': { role: 'EDITOR' },
    'PATCH /asset-shares/:id': { access: 'VIEW' },
    'PATCH /collection-shares/:id': { access: 'VIEW' },
    'PATCH /portals/:id': { name: 'B' },
    'PATCH /guest-uploads/:id': { name: 'B' },
    'PATCH /groups/:id': { name: 'B' },
    'POST /assets/:id/comments': { text: 'B was here' },
    'PATCH /comments/:id': { text: 'B was here' },
    'PATCH /saved-searches/:id': { name: 'B' },
    'POST /saved-searches/:id/results': { from: 0, pageSize: 10 },
    'PATCH /search-filter-view/search-filters/:id': { position: 0 },
    'PATCH /field-views/:id': { name: 'B' },
    'PATCH /subscription-intents/:id': { status: 'CANCELLED' },
    'PUT /account-terms-and-conditions/:id': { text: 'B rules now', acceptanceRequired: true },
    'POST /account-terms-and-conditions/:id/acceptances': { version: 1 },
    'PUT /admin/accounts/:accountId/entities/:id/quota-override': { quota: 0 },
    // Raw bytes, sent without the URL's signature.
    'PUT /upload-parts/:uploadId/:partNumber': 'B bytes',
    'PUT /reference-images/:key': 'B bytes',
  });

  /** Where a path of A's names a user, B tries to put itself there instead. */
  const pathFor = (method: string, route: string): string | undefined => {
    if (method === 'PUT' && route === '/collections/:id/collaborators/:userId') return `/collections/${a.named.collection}/collaborators/${bUserId}`;
    return a.paths[route];
  };

  /**
   * Bodies for routes without an id that name A's ids: each must be refused (4xx, or a batch whose every
   * item failed). The rest of the routes without an id act on B's own account and are only scanned.
   */
  const refusedBodies = (): Record<string, unknown> => {
    const { asset, file, field, option, folder, member, collection } = a.named;
    return {
      'POST /field-option-batches': { items: [{ batchItemId: 'x', fieldId: field, value: 'B' }] },
      'POST /asset-scroll-search-scrolls': { scrollId: a.named.scroll },
      'POST /asset-uploads': { assetId: asset, assetFileId: null, size: 10 },
      'POST /asset-upload-completions': { assetId: asset, uploadId: a.named['open upload'], parts: [{ partNumber: 1, eTag: 'x' }] },
      'POST /asset-and-upload-batch-jobs': { items: [{ batchItemId: 'x', assetId: asset, assetFileId: null, size: 1 }] },
      'POST /asset-upload-batch-jobs': { items: [{ batchItemId: 'x', assetId: asset, assetFileId: file, size: 1 }] },
      'POST /asset-download-batch-jobs': { items: [{ batchItemId: 'x', assetId: asset, assetFileId: file }] },
      'POST /collections': { name: 'B', assetIds: [asset] },
      'POST /asset-shares': { assetIds: [asset] },
      'POST /collection-shares': { collectionId: collection },
      'POST /portals': { name: 'B', folderIds: [folder] },
      'POST /guest-uploads': { name: 'B', folderId: folder },
      'POST /groups': { name: 'B', memberIds: [member] },
      'POST /saved-searches': { name: 'B', criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: field }, value: option } },
      'POST /asset-metadata-edit-batch-jobs': { selector: { type: 'BY_IDS', assetIds: [asset] }, metadataFieldValueUpdates: [{ fieldId: bKeywords, type: 'BY_VALUES', values: ['B'], operation: 'ADD' }] },
      'POST /asset-lifecycle-transition-batch-jobs': { selector: { type: 'BY_IDS', assetIds: [asset] }, targetState: 'BINNED' },
      'POST /asset-deletion-batch-jobs': { selector: { type: 'BY_IDS', assetIds: [asset] } },
      // The V1 path is refused whatever the body.
      'POST /asset-staging-workflow-transition-batch-jobs': { selector: { type: 'BY_IDS', assetIds: [asset] } },
      'POST /search-filter-view/search-filters': { searchFilterId: field },
      'POST /field-views': { name: 'B', fieldIds: [field] },
      'POST /asset-metadata-suggestion-batch-jobs': { selector: { type: 'BY_IDS', assetIds: [asset] } },
      'POST /rejected-asset-metadata-suggestion-batches': { items: [{ batchItemId: 'x', assetId: asset, fieldId: bKeywords, value: 'B' }] },
      'PATCH /auto-tagging-image-settings': { targetFieldId: field },
      'POST /staff-members': { email: service.running.ctx.config.adminEmail },
    };
  };

  /** Bodies for routes without an id that act on B's own account: the answers are scanned for A's data. */
  const ownBodies = (): Record<string, unknown> => ({
    'POST /fields': { name: 'B field' },
    'PUT /custom-integration-settings': { redirectUris: ['http://127.0.0.1/b'] },
    'POST /field-option-searches': { criterion: { type: 'MATCH_ALL' } },
    'POST /assets-creations': { count: 1 },
    'POST /asset-searches': { criterion: { type: 'MATCH_ALL' }, sorts: [] },
    'POST /asset-scroll-searches': { criterion: { type: 'MATCH_ALL' }, sorts: [] },
    'POST /preset-transformation-searches': { criterion: { type: 'MATCH_ALL' }, sorts: [] },
    'POST /preset-transformations-for-asset-searches': { assetIds: [a.named.asset] },
    'POST /collection-searches': { criterion: { type: 'MATCH_ALL' } },
    'POST /asset-share-searches': { criterion: { type: 'MATCH_ALL' } },
    'POST /collection-share-searches': { criterion: { type: 'MATCH_ALL' } },
    'POST /user-searches': {},
    'POST /asset-download-event-searches': { criterion: { type: 'MATCH_ALL' }, sorts: [] },
    'POST /reference-image-uploads': undefined,
    'POST /external-app-users': { externalAppUserId: 'b-user' },
    'POST /external-app-sso-tokens': undefined,
    'POST /external-app-accounts': { externalAppAccountId: 'b-account' },
    'POST /subscription-intents': { plan: 'TIERED', tier: 'GROWTH' },
    'PUT /account-security': { allowedEmailDomains: ['bravo.test'], sessionLifetimeHours: 1 },
    'PATCH /text-in-image-settings': { languages: ['fr'] },
    'PUT /storefront-sku-settings': { skus: [] },
    'PUT /allowed-login-methods': { methods: ['PASSWORD'] },
    'PATCH /onboarding-checklist': { dismissed: true },
  });

  /** Reads by B go first and deletions last, so a leaking write is seen by the reads of A, not hidden. */
  const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

  it('walks every route of the table with B\'s token and A\'s ids', async () => {
    const routes = [...service.running.routes].sort((x, y) => ORDER.indexOf(x.method) - ORDER.indexOf(y.method));
    const idBodies = idRouteBodies();
    const refused = refusedBodies();
    const own = ownBodies();
    const uncovered: string[] = [];
    const problems: string[] = [];
    const covered: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const getName = `GET ${route.url}`;
      if (ACCOUNT_INDEPENDENT[name] !== undefined || (route.method === 'HEAD' && ACCOUNT_INDEPENDENT[getName] !== undefined)) continue;
      if (PUBLIC_BY_KEY.test(route.url)) continue;
      const takesBody = route.body !== undefined || route.rawBody || ['POST', 'PUT', 'PATCH'].includes(route.method);
      if (route.url.includes(':')) {
        const path = pathFor(route.method, route.url);
        const body = idBodies[name];
        if (path === undefined || (takesBody && !(name in idBodies) && route.body !== undefined)) {
          uncovered.push(name);
          continue;
        }
        const answer = await asB(route.method, path, body);
        const expected = EXPECTED_STATUS[name] ?? (SIGNED.test(route.url) ? 403 : 404);
        if (answer.status !== expected) problems.push(`${name}: ${answer.status}, not ${expected}: ${answer.text.slice(0, 300)}`);
        const leaks = leaksIn(answer.text, path);
        if (leaks.length > 0) problems.push(`${name} shows A's data: ${leaks.join(', ')}`);
        covered.push(name);
        continue;
      }
      if (takesBody && !(name in refused) && !(name in own)) {
        uncovered.push(name);
        continue;
      }
      const body = refused[name] ?? own[name];
      const sent = JSON.stringify(body ?? null);
      const answer = await asB(route.method, route.url, body);
      if (answer.status >= 500) problems.push(`${name}: ${answer.status}: ${answer.text.slice(0, 300)}`);
      if (name in refused) {
        const job = answer.status === 200 && route.url.endsWith('-batch-jobs') ? await finishedJob(service, route.url, answer.body.result.id, bToken) : undefined;
        const outcome = job ?? answer.body;
        const allFailed = answer.status === 200 && outcome.successes !== undefined && Object.keys(outcome.successes).length === 0 && Object.keys(outcome.failures ?? {}).length > 0;
        if (!(answer.status >= 400 && answer.status < 500) && !allFailed) problems.push(`${name} accepted A's ids: ${answer.status} ${answer.text.slice(0, 300)}`);
        if (job !== undefined) {
          const leaks = leaksIn(JSON.stringify(job), sent);
          if (leaks.length > 0) problems.push(`${name}'s job shows A's data: ${leaks.join(', ')}`);
        }
      }
      const leaks = leaksIn(answer.text, sent);
      if (leaks.length > 0) problems.push(`${name} shows A's data: ${leaks.join(', ')}`);
      covered.push(name);
    }
    expect(uncovered, 'routes the sweep has no URL or body for: add them to the seed and the body lists').toEqual([]);
    expect(problems).toEqual([]);
    // The sweep really walked the table: every id route of A and more.
    expect(covered.length).toBeGreaterThan(150);
    expect(covered).toEqual(expect.arrayContaining(['DELETE /assets/:id', 'PATCH /field-views/:id', 'GET /change-events', 'POST /asset-download-event-searches']));
  }, 120_000);

  it("refuses A's ids inside requests about B's own entities", async () => {
    const { asset, file, option, folder, member, group } = a.named;
    const field = a.named.field ?? 'no field';
    const own = async (method: string, path: string, body?: unknown): Promise<any> => {
      const answer = await asB(method, path, body);
      if (answer.status !== 200) throw new Error(`B's own ${method} ${path}: ${answer.status} ${answer.text}`);
      return answer.body;
    };
    const bFolders = (await own('GET', '/folder-settings')).result.fieldId;
    const bFolder = (await own('POST', '/field-option-batches', { items: [{ batchItemId: 'f', fieldId: bFolders, value: 'B folder' }] })).successes.f.result.id;
    const bField = (await own('POST', '/fields', { name: 'B colour', hasFixedOptions: true })).result.id;
    const bOption = (await own('POST', '/field-option-batches', { items: [{ batchItemId: 'o', fieldId: bField, value: 'B red' }] })).successes.o.result.id;
    const bAsset = (await own('POST', '/assets-creations', { count: 1 })).results[0].result.id;
    const bCollection = (await own('POST', '/collections', { name: 'B collection' })).result.id;
    const bGroup = (await own('POST', '/groups', { name: 'B group' })).result.id;
    const bPortal = (await own('POST', '/portals', { name: 'B portal', folderIds: [bFolder] })).result.id;
    const bView = (await own('POST', '/field-views', { name: 'B view', fieldIds: [bField] })).result.id;
    const bSaved = (await own('POST', '/saved-searches', { name: 'B saved', criterion: { type: 'MATCH_ALL' } })).result.id;
    const bShare = (await own('POST', '/asset-shares', { assetIds: [bAsset], access: 'VIEW_AND_DOWNLOAD' })).result.id;
    const bLink = (await own('POST', '/guest-uploads', { name: 'B drop box', folderId: bFolder })).result.key;
    const aCursor = await firstEventOf('/change-events', await service.token());
    const parts = [{ partNumber: 1, eTag: 'x' }];

    const refusals: [string, string, unknown][] = [
      ['PATCH', `/assets/${bAsset}`, { metadata: { values: { [field]: [option] } } }],
      ['PATCH', `/assets/${bAsset}`, { metadata: { values: { [bFolders]: [folder] } } }],
      ['PATCH', `/field-options/${bOption}`, { parentId: option }],
      ['POST', '/field-option-batches', { items: [{ batchItemId: 'x', fieldId: bField, value: 'child', parentId: option }] }],
      ['POST', `/collections/${bCollection}/assets`, { assetIds: [asset] }],
      ['PUT', `/collections/${bCollection}/collaborators/${member}`, { role: 'EDITOR' }],
      ['PATCH', `/groups/${bGroup}`, { memberIds: [member] }],
      ['PATCH', `/groups/${bGroup}`, { folderIds: [folder] }],
      ['PATCH', `/portals/${bPortal}`, { folderIds: [folder] }],
      ['PATCH', `/field-views/${bView}`, { fieldIds: [field] }],
      ['PATCH', `/saved-searches/${bSaved}`, { criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: field }, value: option } }],
      ['POST', '/asset-searches', { criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: field }, value: option }, sorts: [] }],
      ['POST', '/asset-uploads', { assetId: bAsset, assetFileId: file, size: 10 }],
      ['POST', '/asset-upload-completions', { assetId: bAsset, uploadId: a.named['open upload'], parts }],
      ['POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'x', assetId: bAsset, assetFileId: file }] }],
      ['POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'x', assetId: bAsset }], transformationDescription: { type: 'CUSTOM', candidateTransformations: [{ transformation: { operations: [{ type: 'CROP', savedCropAreaId: a.named['crop area'] }] } }] } }],
      ['POST', '/asset-metadata-edit-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [bAsset] }, metadataFieldValueUpdates: [{ fieldId: field, type: 'BY_IDS', values: [option], operation: 'ADD' }] }],
      ['POST', '/asset-metadata-edit-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [bAsset] }, metadataFieldValueUpdates: [{ fieldId: bFolders, type: 'BY_IDS', values: [folder], operation: 'ADD' }] }],
      ['POST', '/rejected-asset-metadata-suggestion-batches', { items: [{ batchItemId: 'x', assetId: bAsset, fieldId: field, value: 'x' }] }],
      ['POST', '/search-filter-view/search-filters', { searchFilterId: field }],
      ['GET', `/change-events?cursor=${encodeURIComponent(aCursor)}`, undefined],
      // B's public links do not reach A's assets or uploads, nor does A's link reach A's other assets.
      ['GET', `/public/portals/${bPortal}/assets/${asset}/content`, undefined],
      ['GET', `/public/asset-shares/${bShare}/assets/${asset}/content`, undefined],
      ['POST', `/public/guest-uploads/${bLink}/completions`, { assetId: asset, uploadId: a.named['open upload'], parts }],
      ['POST', `/public/guest-uploads/${a.named['guest upload key']}/completions`, { assetId: asset, uploadId: a.named['open upload'], parts }],
    ];
    const problems: string[] = [];
    for (const [method, path, body] of refusals) {
      const answer = await asB(method, path, body);
      const job = answer.status === 200 && path.endsWith('-batch-jobs') ? await finishedJob(service, path, answer.body.result.id, bToken) : undefined;
      const outcome = job ?? answer.body;
      const allFailed = answer.status === 200 && outcome.successes !== undefined && Object.keys(outcome.successes).length === 0;
      if (!(answer.status >= 400 && answer.status < 500) && !allFailed) problems.push(`${method} ${path} ${JSON.stringify(body)} accepted A's ids: ${answer.status} ${answer.text.slice(0, 300)}`);
      const leaks = leaksIn(`${answer.text}${JSON.stringify(job ?? null)}`, `${path}${JSON.stringify(body ?? null)}`);
      if (leaks.length > 0) problems.push(`${method} ${path} shows A's data: ${leaks.join(', ')}`);
    }
    // Searches that name A's ids find nothing of A's.
    const searches: [string, unknown][] = [
      ['/field-option-searches', { criterion: { type: 'FIELD_EQUALS', field: 'FIELD_ID', value: field } }],
      ['/user-searches', { groupId: group }],
      ['/asset-searches', { criterion: { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: [asset, a.named.otherAsset] }, sorts: [] }],
      ['/asset-download-event-searches', { criterion: { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, value: asset } }],
      ['/collection-searches', { criterion: { type: 'MATCH_ALL' } }],
    ];
    for (const [path, body] of searches) {
      const answer = await asB('POST', path, body);
      if (answer.status === 200 && answer.body.totalResults !== 0) problems.push(`POST ${path} ${JSON.stringify(body)} found ${answer.body.totalResults}: ${answer.text.slice(0, 300)}`);
      const leaks = leaksIn(answer.text, JSON.stringify(body));
      if (leaks.length > 0) problems.push(`POST ${path} shows A's data: ${leaks.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it("lets B use A's names, and says nothing of A where a key is global", async () => {
    // Names are unique per account: A's must not be taken for B.
    const sameNames: [string, string, unknown][] = [
      ['POST', '/fields', { name: `${MARKER} Colour`, hasFixedOptions: true }],
      ['POST', '/collections', { name: `${MARKER} Collection` }],
      ['POST', '/groups', { name: `${MARKER} Group` }],
      ['POST', '/saved-searches', { name: `${MARKER} Reds`, criterion: { type: 'MATCH_ALL' } }],
      ['POST', '/field-views', { name: `${MARKER} View`, fieldIds: [] }],
    ];
    for (const [method, path, body] of sameNames) {
      const answer = await asB(method, path, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
      expect(leaksIn(answer.text.split(MARKER).join(''), '')).toEqual([]);
    }
    const upload = await asB('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'u', path: `/${MARKER} Folder/same.bin`, size: 1 }] });
    const job = await finishedJob(service, '/asset-and-upload-batch-jobs', upload.body.result.id, bToken);
    expect(job.successes.u.assetId).toEqual(expect.any(String));
    const bFolders = (await asB('GET', '/folder-settings')).body.result.fieldId;
    const folders = await asB('POST', '/field-option-searches', { criterion: { type: 'FIELD_EQUALS', field: 'FIELD_ID', value: bFolders } });
    expect(folders.body.results.map((entry: any) => entry.result.value)).toContain(`${MARKER} Folder`);
    expect(leaksIn(folders.text.split(MARKER).join(''), '')).toEqual([]);
    // Slugs, external account ids, sign-up e-mails are global (a public URL names no account): taken,
    // but the answer names nothing of A.
    const global: [string, string, unknown, string][] = [
      ['POST', '/asset-shares', { assetIds: [job.successes.u.assetId], slug: `${MARKER}-asset-share` }, 'SLUG_TAKEN'],
      ['POST', '/external-app-accounts', { externalAppAccountId: `${MARKER}-account` }, 'EXTERNAL_APP_ACCOUNT_TAKEN'],
    ];
    for (const [method, path, body, code] of global) {
      const answer = await asB(method, path, body);
      expect(answer.body.code, `${method} ${path}: ${answer.text}`).toBe(code);
      expect(leaksIn(answer.text.split(MARKER).join(''), JSON.stringify(body))).toEqual([]);
    }
  });

  it("selects the account by the token's subdomain scope, for a user who is in both", async () => {
    const { ctx } = service.running;
    const both = ctx.accounts.userByEmail(`member-${MARKER}@example.test`);
    const bravo = ctx.accounts.bySubdomain('bravo');
    if (both === undefined || bravo === undefined) throw new Error('no member or no account bravo');
    ctx.accounts.addMembership(bravo.id, both.id, 'member');
    const inA = await ctx.tokens.issue({ sub: both.id, scope: 'subdomain:local' }, 3600);
    const inB = await ctx.tokens.issue({ sub: both.id, scope: 'subdomain:bravo' }, 3600);
    expect((await service.api('GET', `/assets/${a.named.asset}`, undefined, inA)).status).toBe(200);
    const fromB = await service.api('GET', `/assets/${a.named.asset}`, undefined, inB);
    expect(fromB.status).toBe(404);
    expect((await service.api('GET', '/current-user', undefined, inB)).text).not.toContain(a.accountId);
    const searched = await service.api('POST', '/asset-searches', { criterion: { type: 'MATCH_ALL' }, sorts: [] }, inB);
    expect(leaksIn(searched.text, '')).toEqual([]);
    // B's admin sees the shared user as B's member only: not their groups, collections or role in A.
    const user = await service.api('GET', `/users/${both.id}`, undefined, bToken);
    expect(user.status).toBe(200);
    const own = (text: string): string => text.split(both.email).join('').split(both.name ?? both.email).join('');
    expect(leaksIn(own(user.text), both.id)).toEqual([]);
    const found = await service.api('POST', '/user-searches', { text: 'member' }, bToken);
    expect(found.body.totalResults).toBe(1);
    expect(leaksIn(own(found.text), both.id)).toEqual([]);
    // B's admin has no membership in A: a token naming A's subdomain is refused, not served as B.
    const forged = await ctx.tokens.issue({ sub: bUserId, scope: 'subdomain:local' }, 3600);
    const refused = await service.api('GET', '/fields', undefined, forged);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('TOKEN_INVALID');
    ctx.accounts.removeMember(bravo.id, both.id);
  });

  it("opens A's public links only by their keys, showing only what each grants", async () => {
    const { named } = a;
    /** A visitor's GET (with B's token or none): the status, and the redirect target with the body. */
    const anyone = async (path: string, token?: string): Promise<{ status: number; text: string }> => {
      const response = await fetch(`${service.url}${path}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, redirect: 'manual' });
      const text = `${response.headers.get('location') ?? ''}${await response.text()}`;
      return { status: response.status, text };
    };
    // What each link grants: its own key and its assets (the shared asset, with its file and name).
    const granted = [named['asset share'] ?? '', named['collection share'] ?? '', named.asset ?? '', named.file ?? '', `${MARKER}-shared`, `${MARKER}-asset-share`, `${MARKER}-collection-share`];
    const shows = (text: string, also: string[]): string[] => {
      let rest = text;
      for (const allowed of [...granted, ...also]) rest = rest.split(allowed).join('');
      return leaksIn(rest, '');
    };
    const problems: string[] = [];
    const expectOpen = async (path: string, also: string[] = []): Promise<void> => {
      for (const token of [undefined, bToken]) {
        const answer = await anyone(path, token);
        // Content answers with a redirect to the file's signed URL.
        const expected = path.endsWith('/content') ? 302 : 200;
        if (answer.status !== expected) problems.push(`${path}: ${answer.status}, not ${expected}: ${answer.text.slice(0, 200)}`);
        const extra = shows(answer.text, also);
        if (extra.length > 0) problems.push(`${path} shows more than it grants: ${extra.join(', ')}`);
      }
    };
    const expectClosed = async (path: string): Promise<void> => {
      for (const token of [undefined, bToken]) {
        const answer = await anyone(path, token);
        if (answer.status !== 404) problems.push(`${path}: ${answer.status}, not 404: ${answer.text.slice(0, 200)}`);
        // The error body names the path asked for; anything else of A's would be a leak.
        const extra = leaksIn(answer.text.split(path).join(''), path);
        if (extra.length > 0) problems.push(`${path} shows A's data: ${extra.join(', ')}`);
      }
    };
    await expectOpen(`/public/asset-shares/${MARKER}-asset-share`);
    await expectOpen(`/public/collection-shares/${MARKER}-collection-share`, [`${MARKER} Collection`]);
    await expectOpen(`/public/asset-shares/${MARKER}-asset-share/assets/${named.asset}/content`);
    // Not an asset of the share, not a share of this kind, not a key at all.
    await expectClosed(`/public/asset-shares/${MARKER}-asset-share/assets/${named.otherAsset}/content`);
    await expectClosed(`/public/collection-shares/${MARKER}-collection-share/assets/${named.otherAsset}/content`);
    await expectClosed(`/public/asset-shares/${MARKER}-collection-share`);
    await expectClosed(`/public/collection-shares/${MARKER}-asset-share`);
    await expectClosed(`/public/asset-shares/${named.asset}`);
    await expectClosed(`/public/collection-shares/${named.collection}`);
    // The portal shows its folder's assets, nothing outside it.
    const portalAssets = [named.otherAsset ?? '', `${MARKER}-unshared`, named[`${MARKER}-unshared file`] ?? '', `${MARKER} Portal`, `${MARKER} Folder`, named.portal ?? '', named.folder ?? ''];
    await expectOpen(`/public/portals/${named.portal}`, portalAssets);
    await expectOpen(`/public/portals/${named.portal}/assets`, portalAssets);
    await expectClosed(`/public/portals/${named.portal}/assets/${named.outside}/content`);
    await expectClosed(`/public/portals/${named.collection}`);
    // A guest upload link opens by its key, not by its id; it shows its name and folder only.
    await expectOpen(`/public/guest-uploads/${named['guest upload key']}`, [`${MARKER} Drop box`, `${MARKER} Folder`]);
    await expectClosed(`/public/guest-uploads/${named['guest upload']}`);
    expect(problems).toEqual([]);
  });

  it('leaves every entity of A as it was', async () => {
    const changed: string[] = [];
    for (const [path, answer] of before) {
      const now = await readAsA(path);
      if (now !== answer) changed.push(`${path}\n  before: ${answer.slice(0, 400)}\n  after:  ${now.slice(0, 400)}`);
    }
    expect(changed).toEqual([]);
    expect([...before.values()].filter((answer) => !answer.startsWith('200 '))).toEqual([]);
  });
});

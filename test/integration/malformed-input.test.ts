/**
 * No input produces a 500: every route the service registers (read from fastify's route table, so new
 * routes are swept too) gets hostile bodies, hostile path parameters and hostile queries, and must answer
 * 4xx with the error body of API.md §1. Requests go through node:http so paths reach the service exactly
 * as written (fetch would resolve `..` and `%2e%2e` before sending).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startTestService, type TestService } from '../support/test-service.js';
import { randomFile, uploadNewAsset } from '../support/upload-helpers.js';

interface Route {
  method: string;
  url: string;
}

interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** The routes of fastify's `printRoutes({ commonPrefix: false })` tree, HEAD left out. */
function listRoutes(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?\s*$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = (stack[depth - 1] ?? '') + (match[2] ?? '');
    stack.length = depth;
    stack.push(url);
    for (const method of (match[3] ?? '').split(',').map((name) => name.trim())) {
      if (method !== '' && method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, method, path, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    // The service may answer (413, 403) before reading a large body and close the connection.
    outgoing.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    outgoing.end(body);
  });
}

/** Property names of every request body the API knows, so a hostile value lands where a route looks. */
const KEYS = [
  'count', 'size', 'partSize', 'partUrlsRequest', 'items', 'parts', 'assetId', 'assetFileId', 'uploadId', 'path', 'filename',
  'metadata', 'name', 'hasFixedOptions', 'hierarchical', 'multiValue', 'value', 'parentId', 'position', 'fieldId', 'from',
  'pageSize', 'criterion', 'sorts', 'selector', 'targetState', 'metadataFieldValueUpdates', 'scrollId', 'transformationDescription',
  'zip', 'batchItemId', 'grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'refresh_token', 'code_verifier',
  'redirectUris', 'email', 'password', 'transaction', 'decision',
];
/** The properties that hold objects or lists, where a recursive walker could overflow its stack. */
const STRUCTURED = ['items', 'parts', 'partUrlsRequest', 'metadata', 'criterion', 'sorts', 'selector', 'metadataFieldValueUpdates', 'transformationDescription', 'redirectUris'];
const everywhere = (value: unknown): string => JSON.stringify(Object.fromEntries(KEYS.map((key) => [key, value])));
const deeplyNested = (depth: number): string => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
const megabyte = 'x'.repeat(1024 * 1024);

/**
 * Bodies no route accepts: [label, content type, body]. The last three set only some properties (or
 * none a route knows), so a route whose properties are all optional may take them as an empty body.
 */
const BODIES: [string, string | undefined, string][] = [
  ['invalid JSON', 'application/json', '{"count": 1,'],
  ['a lone brace', 'application/json', '{'],
  ['a JSON array', 'application/json', '[1, 2, 3]'],
  ['a JSON string', 'application/json', '"hello"'],
  ['null', 'application/json', 'null'],
  ['a bare number', 'application/json', '42'],
  ['true', 'application/json', 'true'],
  ['1e308 everywhere', 'application/json', everywhere(1e308)],
  ['2**64 everywhere', 'application/json', everywhere(2 ** 64)],
  ['-1 everywhere', 'application/json', everywhere(-1)],
  ['-1e308 everywhere', 'application/json', everywhere(-1e308)],
  ['a fraction everywhere', 'application/json', everywhere(0.5)],
  ['true everywhere', 'application/json', everywhere(true)],
  ['null everywhere', 'application/json', everywhere(null)],
  ['{} everywhere', 'application/json', everywhere({})],
  ['[] everywhere', 'application/json', everywhere([])],
  ['[null] everywhere', 'application/json', everywhere([null])],
  ['a 10,000-deep object in every structured property', 'application/json', `{${STRUCTURED.map((key) => `"${key}":${deeplyNested(10_000)}`).join(',')}}`],
  ['a 100,000-deep array', 'application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['1 MB strings', 'application/json', JSON.stringify({ name: megabyte, path: `/${megabyte}`, filename: megabyte, value: megabyte, count: megabyte, size: megabyte, items: megabyte, criterion: megabyte })],
  ['path traversal everywhere', 'application/json', everywhere('../../etc/passwd')],
  ['encoded traversal everywhere', 'application/json', everywhere('%2e%2e%2f%2e%2e%2fetc%2fpasswd')],
  ['NUL bytes everywhere', 'application/json', everywhere('a\u0000b')],
  ['prototype keys', 'application/json', '{"__proto__": {"count": 1, "admin": true}, "constructor": {"prototype": {"x": 1}}}'],
  ['invalid JSON as text/plain', 'text/plain', '{"count": 1,'],
  ['JSON sent as text/plain', 'text/plain', everywhere(-1)],
  ['XML', 'application/xml', '<count>1</count>'],
  ['multipart form data', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="count"\r\n\r\n1\r\n--x--\r\n'],
  ['a form with hostile values', 'application/x-www-form-urlencoded', 'count=-1&size=1e308&path=..%2F..%2Fetc%2Fpasswd&name=%00&items=x&grant_type=%00'],
  ['bytes without a content type', undefined, '\u0000\u0001\u0002'],
  ['invalid JSON in another charset', 'application/json; charset=utf-16le', '{"count": 1,'],
];

/** Bodies that may be valid on a route whose every property is optional (null there reads as absent). */
const PARTIAL = new Set(['1 MB strings', 'prototype keys', 'a form with hostile values', 'null everywhere']);

const PARAMS: [string, string][] = [
  ['an encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['a lower-case encoded traversal', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
  ['a raw dot-dot', '..'],
  ['a NUL byte', 'a%00b'],
  ['a broken escape', '%E0%A4%A'],
  ['an emoji', '%F0%9F%92%A9'],
  ['a huge number', '1e308'],
  ['2**64', '18446744073709551616'],
  ['a negative number', '-1'],
  ['a 900-character id', 'a'.repeat(900)],
  ['a 5,000-character id', 'b'.repeat(5000)],
];

/** Whether `actual` matches `expected` (asymmetric matchers allowed), without failing the test. */
function matches(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toEqual(expected);
    return true;
  } catch {
    return false;
  }
}

interface Case {
  what: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** The status this case must get, when more precise than "some 4xx". */
  status?: number;
  code?: string;
}

// Each sweep sends thousands of requests (the route table times the hostile inputs): ~30 s of CPU for
// the file. The time limits are there to catch a hang, and leave room for a machine that is busy.
/** The endpoints that answer in RFC 6749's error shape. */
const isOAuthEndpoint = (path: string): boolean => path.startsWith('/oauth/token') || path.startsWith('/oauth/revoke');

describe('malformed input never causes a 500', { timeout: 180_000 }, () => {
  let service: TestService;
  let token: string;
  let routes: Route[];
  let assetId: string;
  beforeAll(async () => {
    service = await startTestService();
    token = await service.token();
    routes = listRoutes(service.running.app.printRoutes({ commonPrefix: false }));
    ({ assetId } = await uploadNewAsset(service, '/Sweep/target.bin', randomFile(64)));
  });
  afterAll(async () => {
    await service.dispose();
  });

  /**
   * What is wrong with one answer, or undefined: it must be 4xx with the JSON error body of API.md §1
   * (the browser pages of /authorize answer HTML instead).
   */
  const problemWith = (entry: Case, answer: RawAnswer): string | undefined => {
    if (answer.status < 400 || answer.status >= 500) return `status ${answer.status}`;
    if (entry.status !== undefined && answer.status !== entry.status) return `status ${answer.status}, not ${entry.status}`;
    if (entry.path.startsWith('/authorize') && answer.contentType.startsWith('text/html')) return undefined;
    if (!answer.contentType.startsWith('application/json')) return `content type ${answer.contentType}`;
    const body: unknown = JSON.parse(answer.text);
    const expected = {
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: answer.status,
      error: expect.any(String),
      message: expect.any(String),
      path: entry.path.split('?')[0],
      code: entry.code ?? expect.stringMatching(/^[A-Z][A-Z0-9_]+$/),
      // The token and revocation endpoints add RFC 6749's error_description (oauth-errors.ts).
      ...(isOAuthEndpoint(entry.path) ? { error_description: expect.any(String) } : {}),
    };
    return matches(body, expected) ? undefined : 'not the error body of API.md §1';
  };

  /** Sends every case, then fails once, listing every answer that is not the expected 4xx. */
  const sweep = async (cases: Case[]): Promise<void> => {
    expect(cases.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const entry of cases) {
      const answer = await send(service.url, entry.method, entry.path, entry.headers, entry.body);
      const problem = problemWith(entry, answer);
      if (problem !== undefined) problems.push(`${entry.what}: ${problem}: ${answer.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  };

  const bearer = (): Record<string, string> => ({ authorization: `Bearer ${token}` });
  const json = (): Record<string, string> => ({ ...bearer(), 'content-type': 'application/json' });
  const hasBody = (method: string): boolean => ['POST', 'PUT', 'PATCH'].includes(method);

  /** A concrete URL for a route: its parameters filled with `value`, or with harmless ids. */
  const fill = (url: string, value?: string): string =>
    url.replace(/:(\w+)/g, (_all, name: string) => value ?? (name === 'partNumber' ? '1' : name === 'id' && url.startsWith('/assets/') ? assetId : '00000000-0000-4000-8000-000000000000'));

  it('reads the route table', () => {
    const names = routes.map((route) => `${route.method} ${route.url}`);
    for (const expected of ['GET /assets/:id', 'PATCH /assets/:id', 'DELETE /assets/:id', 'GET /assets/:id/files', 'POST /assets-creations', 'DELETE /asset-files/:id', 'POST /asset-uploads', 'POST /asset-upload-completions', 'PUT /upload-parts/:uploadId/:partNumber', 'POST /asset-and-upload-batch-jobs', 'GET /asset-and-upload-batch-jobs/:id', 'GET /files/:fileId/content', 'POST /fields', 'PATCH /fields/:id']) {
      expect(names).toContain(expected);
    }
  });

  it('answers every hostile body on every route with a 4xx error body', async () => {
    const cases: Case[] = [];
    const emptyBodyRoutes: string[] = [];
    for (const route of routes.filter((entry) => hasBody(entry.method))) {
      const path = fill(route.url);
      const takesEmptyBody = (await send(service.url, route.method, path, json(), '{}')).status === 200;
      if (takesEmptyBody) emptyBodyRoutes.push(`${route.method} ${route.url}`);
      for (const [label, contentType, body] of BODIES) {
        if (takesEmptyBody && PARTIAL.has(label)) continue;
        // A user search has no structured property, so the deep objects land in ignored unknown keys.
        if (route.url === '/user-searches' && label.startsWith('a 10,000-deep object')) continue;
        // The settings' one property is a list of redirect URIs, and an empty list is a valid one.
        if (route.url === '/custom-integration-settings' && label === '[] everywhere') continue;
        // A collection's or group's one required property is a free-text name, and a traversal string is a valid one.
        if ((route.url === '/collections' || route.url === '/groups') && label.includes('traversal everywhere')) continue;
        // Settings PATCHes (issue 21) change only the properties they name, and none of theirs is among
        // KEYS: such a body names nothing and changes nothing, which is a valid PATCH.
        // These take no body at all (issue 21): whatever is sent is never read.
        if (route.method === 'POST' && ['/reference-image-uploads', '/external-app-sso-tokens'].includes(route.url)) continue;
        if (route.method === 'PATCH' && /^\/(auto-tagging-image-settings|text-in-image-settings|onboarding-checklist)$/.test(route.url)) continue;
        const headers = contentType === undefined ? bearer() : { ...bearer(), 'content-type': contentType };
        cases.push({ what: `${route.method} ${route.url} with ${label}`, method: route.method, path, headers, body });
      }
    }
    // PATCHes of settings change only what they name; a reference image upload takes no body at all.
    expect(emptyBodyRoutes.sort()).toEqual([
      'PATCH /assets/:id',
      'PATCH /auto-tagging-image-settings',
      'PATCH /onboarding-checklist',
      'PATCH /text-in-image-settings',
      'POST /reference-image-uploads',
      'POST /user-searches',
      'PUT /custom-integration-settings',
    ]);
    // DELETE reads no body, but one it cannot parse is still refused.
    for (const route of routes.filter((entry) => entry.method === 'DELETE')) {
      cases.push({ what: `DELETE ${route.url} with invalid JSON`, method: 'DELETE', path: fill(route.url), headers: json(), body: '{"x":', status: 400, code: 'INVALID_JSON' });
    }
    await sweep(cases);
    const asset = await service.api('GET', `/assets/${assetId}`);
    expect(asset.body.result.currentAssetFile.filename).toBe('target.bin');
  }, 400_000);

  it('refuses control characters in field names', async () => {
    const cases: Case[] = [];
    for (const name of ['a\u0000b', 'two\nlines', 'bell\u0007', 'del\u007f']) {
      const body = JSON.stringify({ name });
      cases.push({ what: `POST /fields ${JSON.stringify(name)}`, method: 'POST', path: '/fields', headers: json(), body, status: 400, code: 'INVALID_BODY' });
      const keywords = (await service.api('GET', '/fields')).body.find((field: any) => field.name === 'Keywords');
      cases.push({ what: `PATCH /fields/:id ${JSON.stringify(name)}`, method: 'PATCH', path: `/fields/${keywords.id}`, headers: json(), body, status: 400, code: 'INVALID_BODY' });
    }
    await sweep(cases);
    const names: string[] = (await service.api('GET', '/fields')).body.map((field: any) => field.name);
    expect(names.filter((name) => Array.from(name).some((character) => character < ' ' || character === '\u007f'))).toEqual([]);
  });

  it('answers hostile path parameters and queries on every route with a 4xx error body', async () => {
    const cases: Case[] = [];
    for (const route of routes.filter((entry) => entry.url.includes(':'))) {
      for (const [label, value] of PARAMS) {
        for (const query of ['', '?expires=99999999999999999999&signature=AAAA', '?expires=-1&signature=%00&expires=2&md5[]=x']) {
          cases.push({
            what: `${route.method} ${route.url} with ${label} ${query}`,
            method: route.method,
            path: `${fill(route.url, value)}${query}`,
            headers: hasBody(route.method) ? json() : bearer(),
            body: hasBody(route.method) ? '{}' : undefined,
          });
        }
      }
    }
    await sweep(cases);
  });

  it('ignores or refuses hostile queries on routes without parameters', async () => {
    const problems: string[] = [];
    for (const route of routes.filter((entry) => entry.method === 'GET' && !entry.url.includes(':'))) {
      const path = `${route.url}?from=-1&pageSize=1e308&a[b][c]=%00&response_type=..%2F&client_id=${'x'.repeat(5000)}`;
      const answer = await send(service.url, 'GET', path, bearer());
      // Routes that take no query ignore it; the others refuse it.
      if (answer.status === 200 && route.url !== '/authorize') continue;
      const problem = problemWith({ what: route.url, method: 'GET', path, headers: {} }, answer);
      if (problem !== undefined) problems.push(`GET ${route.url}: ${problem}: ${answer.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses bad credentials on every authenticated route with 401', async () => {
    const forged = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"x","scope":"subdomain:local"}').toString('base64url')}.`;
    // A signature changed in its middle: its last characters may differ only in padding bits, which
    // decode to the same bytes (once in about 250 runs "…xx" was the valid token itself).
    const middle = token.lastIndexOf('.') + 20;
    const tampered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
    const credentials = ['', 'Bearer', `Bearer ${forged}`, 'Bearer a.b.c', 'Basic YWRtaW46YWRtaW4=', `Bearer ${'a'.repeat(8000)}`, 'Passcode 1234', `Bearer ${tampered}`];
    // Signed URLs (file contents, renditions, previews, zips, upload parts) carry their credential in the query.
    // `/public/…` routes (shares, portals, guest uploads) are for visitors without an account.
    // Unauthenticated by the spec (§4.3): sign-up and its confirmation, invite requests, public account data, and reading terms.
    const unauthenticated = (route: { method: string; url: string }): boolean =>
      /^\/(accounts$|account-confirmations$|account-invite-requests|publicly-available-account-data-searches|subdomain-availability-checks|reference-images)/.test(route.url) ||
      (route.method === 'GET' && route.url.startsWith('/account-terms-and-conditions/'));
    const privateRoutes = routes.filter((route) => !/^\/(authorize|oauth|health|\.well-known|files|upload-parts|previews|download-zips|public)/.test(route.url) && !unauthenticated(route));
    expect(privateRoutes.length).toBeGreaterThan(15);
    const cases: Case[] = [];
    for (const route of privateRoutes) {
      for (const credential of credentials) {
        const headers: Record<string, string> = credential === '' ? {} : { authorization: credential };
        if (hasBody(route.method)) headers['content-type'] = 'application/json';
        cases.push({ what: `${route.method} ${route.url} with "${credential.slice(0, 20)}"`, method: route.method, path: fill(route.url), headers, body: hasBody(route.method) ? '{}' : undefined, status: 401 });
      }
    }
    await sweep(cases);
  });

  it('answers the signed preview and zip URLs, unsigned, badly signed or badly named, with a clean 4xx', async () => {
    const cases: Case[] = [];
    const paths = [`/previews/${'a'.repeat(64)}.webp`, '/previews/not-a-preview.webp', `/previews/${'A'.repeat(64)}.webp`, '/previews/%00', '/download-zips/00000000-0000-4000-8000-000000000000'];
    for (const path of paths) {
      for (const query of ['', '?expires=99999999999999999999&signature=AAAA', '?expires=1&signature=']) {
        for (const headers of [{}, bearer(), { authorization: 'Bearer a.b.c' }]) {
          cases.push({ what: `GET ${path}${query} ${JSON.stringify(headers).slice(0, 30)}`, method: 'GET', path: `${path}${query}`, headers });
        }
      }
    }
    await sweep(cases);
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body over the limit on every JSON route', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(service.running.ctx.config.bodyLimit + 1024) });
    const cases: Case[] = routes
      .filter((route) => hasBody(route.method) && !route.url.startsWith('/upload-parts') && !route.url.startsWith('/reference-images/'))
      .map((route) => ({
        what: `${route.method} ${route.url}`,
        method: route.method,
        path: fill(route.url),
        headers: json(),
        body: huge,
        // RFC 6749 §5.2 (and RFC 7009 §2.2.1): the token and revocation endpoints answer every malformed request 400 invalid_request.
        ...(isOAuthEndpoint(route.url) ? { status: 400 } : { status: 413, code: 'PAYLOAD_TOO_LARGE' }),
      }));
    await sweep(cases);
  });

  it('answers unknown routes with 404 ROUTE_NOT_FOUND and unusable paths with 400 INVALID_PATH', async () => {
    const notFound = { status: 404, code: 'ROUTE_NOT_FOUND' };
    const invalid = { status: 400, code: 'INVALID_PATH' };
    const cases: [string, string, { status: number; code: string }][] = [
      ['GET', '/nope', notFound],
      ['GET', '/../../etc/passwd', notFound],
      ['GET', '/%2e%2e/%2e%2e/etc/passwd', notFound],
      ['POST', '/assets/x', notFound],
      ['PUT', '/assets-creations', notFound],
      ['OPTIONS', '/assets-creations', notFound],
      ['GET', `/assets/${'c'.repeat(1100)}`, invalid],
      ['GET', '/assets/%E0%A4%A', invalid],
      ['DELETE', '/asset-files/%ZZ', invalid],
    ];
    await sweep(cases.map(([method, path, expected]) => ({ what: `${method} ${path.slice(0, 40)}`, method, path, headers: bearer(), ...expected })));
  });
});

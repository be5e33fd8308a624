import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { randomFile, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('portals', () => {
  const clock = fakeClock();
  let service: TestService;
  let foldersId: string;
  const assets: Record<string, string> = {};
  const folders: Record<string, string> = {};
  const bytes = randomFile(2000);
  beforeAll(async () => {
    service = await startTestService({}, { clock });
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const place = async (name: string, path: string): Promise<void> => {
      const { assetId, asset } = await uploadNewAsset(service, path, name === 'a1' ? bytes : randomFile(100));
      assets[name] = assetId;
      folders[path.split('/').slice(1, -1).join('/')] = asset.metadata.values[foldersId][0];
    };
    await place('a1', '/Portal/A/a1.bin');
    await place('a2', '/Portal/A/Sub/a2.bin');
    await place('staged', '/Portal/A/staged.bin');
    await place('binned', '/Portal/A/binned.bin');
    await place('pending', '/Portal/A/Sub/pending.bin');
    await place('b1', '/Portal/B/b1.bin');
    await place('other', '/Other/other.bin');
    const move = async (ids: string[], targetState: string): Promise<void> => {
      const created = await service.api('POST', '/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: ids }, targetState });
      expect(created.status, created.text).toBe(200);
      await waitForJob(service, '/asset-lifecycle-transition-batch-jobs', created.body.result.id);
    };
    await move([assets.a1, assets.a2, assets.binned, assets.b1, assets.other].map(String), 'LIVE');
    await move([String(assets.binned)], 'BINNED');
    await move([String(assets.pending)], 'PENDING_APPROVAL');
  });
  afterAll(async () => {
    await service.dispose();
  });

  const visit = async (path: string, passcode?: string): Promise<ApiAnswer> => {
    const headers: Record<string, string> = passcode === undefined ? {} : { authorization: `Passcode ${passcode}` };
    const response = await fetch(path.startsWith('http') ? path : `${service.url}${path}`, { headers, redirect: 'manual' });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };
  const ids = (answer: ApiAnswer): string[] => answer.body.results.map((asset: { id: string }) => asset.id).sort();
  const createPortal = async (body: object): Promise<string> => {
    const created = await service.api('POST', '/portals', body);
    expect(created.status, created.text).toBe(200);
    return created.body.result.id;
  };

  it('a visitor with the passcode sees exactly the live assets of its folders, and nothing else', async () => {
    const id = await createPortal({ name: 'Press', folderIds: [folders['Portal/A']], passcode: 'open sesame' });
    const listed = await visit(`/public/portals/${id}/assets`, 'open sesame');
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed)).toEqual([assets.a1, assets.a2].map(String).sort());
    expect(listed.body.totalResults).toBe(2);
    const about = await visit(`/public/portals/${id}`, 'open sesame');
    expect(about.body.result).toEqual({ id, name: 'Press', folders: [{ id: folders['Portal/A'], value: 'A' }] });

    const a1 = listed.body.results.find((asset: { id: string }) => asset.id === assets.a1);
    expect(a1).toMatchObject({ filename: 'a1.bin', size: 2000 });
    const redirect = await visit(a1.downloadUrl, 'open sesame');
    expect(redirect.status).toBe(302);
    const file = await fetch(redirect.headers.get('location') ?? '');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    for (const outside of ['staged', 'binned', 'pending', 'b1', 'other']) {
      expectApiError(await visit(`/public/portals/${id}/assets/${String(assets[outside])}/content`, 'open sesame'), 404, 'NOT_FOUND');
    }
    expectApiError(await visit(`/public/portals/${id}/assets`), 401, 'PASSCODE_REQUIRED');
    expectApiError(await visit(`/public/portals/${id}/assets/${String(assets.a1)}/content`), 401, 'PASSCODE_REQUIRED');
    expectApiError(await visit(`/public/portals/${id}/assets`, 'open sesamE'), 401, 'PASSCODE_INVALID');
    expectApiError(await visit(`/public/portals/${UNKNOWN_ID}/assets`, 'open sesame'), 404, 'NOT_FOUND');
    // A passcode opens portal pages only; the API still wants a bearer token.
    expectApiError(await visit(`/portals/${id}`, 'open sesame'), 401, 'UNAUTHENTICATED', '/public/portals/');
  });

  it('shows a public portal without a passcode, pages it, and follows changes of its folders', async () => {
    const id = await createPortal({ name: 'Everything', folderIds: [folders['Portal/A'], folders['Portal/B']] });
    const all = await visit(`/public/portals/${id}/assets`);
    expect(ids(all)).toEqual([assets.a1, assets.a2, assets.b1].map(String).sort());
    const page = await visit(`/public/portals/${id}/assets?from=2&pageSize=2`);
    expect(page.body.results).toHaveLength(1);
    expect(page.body.totalResults).toBe(3);
    await service.api('PATCH', `/portals/${id}`, { folderIds: [folders['Portal/A/Sub']] });
    expect(ids(await visit(`/public/portals/${id}/assets`))).toEqual([String(assets.a2)]);
    const locked = await service.api('PATCH', `/portals/${id}`, { passcode: 'now locked' });
    expect(locked.body.result.passcodeProtected).toBe(true);
    expectApiError(await visit(`/public/portals/${id}/assets`), 401, 'PASSCODE_REQUIRED');
    const unlocked = await service.api('PATCH', `/portals/${id}`, { passcode: null, name: 'Open again' });
    expect(unlocked.body.result).toMatchObject({ passcodeProtected: false, name: 'Open again' });
    expect((await visit(`/public/portals/${id}/assets`)).status).toBe(200);
    expect((await service.api('DELETE', `/portals/${id}`)).status).toBe(200);
    expectApiError(await visit(`/public/portals/${id}/assets`), 404, 'NOT_FOUND');
  });

  /** A visit from another loopback address (127.0.0.0/8 is all this machine), as another visitor's would be. */
  const visitFrom = (address: string, path: string, passcode: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const request = httpRequest(`${service.url}${path}`, { localAddress: address, headers: { authorization: `Passcode ${passcode}` } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
      request.end();
    });

  it('never locks the right visitor out for others\' wrong passcodes, and backs each guesser off', async () => {
    const id = await createPortal({ name: 'Crowded', folderIds: [folders['Portal/A']], passcode: 'the right one' });
    const path = `/public/portals/${id}/assets`;
    // Twenty addresses, five wrong passcodes each: a hundred failures, a spread-out guess.
    for (let host = 2; host <= 21; host += 1) {
      for (let attempt = 0; attempt < 5; attempt += 1) expect(await visitFrom(`127.0.0.${host}`, path, `guess ${attempt}`)).toBe(401);
      expect(await visitFrom(`127.0.0.${host}`, path, 'guess again')).toBe(429);
    }
    expect(await visitFrom('127.0.0.50', path, 'the right one')).toBe(200);
    // While the guess is spread out, a new address gets one wrong passcode before it waits.
    expect(await visitFrom('127.0.0.51', path, 'one more guess')).toBe(401);
    expect(await visitFrom('127.0.0.51', path, 'and another')).toBe(429);
  });

  it('limits wrong passcodes: after five, even the right one waits for the window to pass', async () => {
    const id = await createPortal({ name: 'Guarded', folderIds: [folders['Portal/A']], passcode: 'right one' });
    for (let attempt = 0; attempt < 5; attempt += 1) expectApiError(await visit(`/public/portals/${id}/assets`, `wrong ${attempt}`), 401, 'PASSCODE_INVALID');
    const limited = await visit(`/public/portals/${id}/assets`, 'right one');
    expectApiError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(16 * 60_000);
    expect((await visit(`/public/portals/${id}/assets`, 'right one')).status).toBe(200);
  });

  it('is managed by admins only, on folders of the account', async () => {
    const member = await addUser(service, 'member@example.test', 'member');
    expectApiError(await service.api('POST', '/portals', { name: 'x', folderIds: [folders['Portal/A']] }, member.token), 403, 'FORBIDDEN');
    const id = await createPortal({ name: 'Admin only', folderIds: [folders['Portal/A']] });
    expectApiError(await service.api('GET', `/portals/${id}`, undefined, member.token), 404, 'NOT_FOUND');
    const got = await service.api('GET', `/portals/${id}`);
    expect(got.body.result).toMatchObject({ id, name: 'Admin only', folderIds: [folders['Portal/A']], passcodeProtected: false, url: `${service.url}/public/portals/${id}` });
    expect(got.body.result).not.toHaveProperty('passcode');
    expect((await service.api('GET', '/portals')).body.results.map((entry: { result: { id: string } }) => entry.result.id)).toContain(id);
    expectApiError(await service.api('POST', '/portals', { name: 'x', folderIds: [UNKNOWN_ID] }), 404, 'NOT_FOUND', 'folder');
    const keywords = (await service.api('GET', '/fields')).body.find((field: { name: string }) => field.name === 'Keywords').id;
    expectApiError(await service.api('POST', '/portals', { name: 'x', folderIds: [keywords] }), 404, 'NOT_FOUND', 'folder');
    expectApiError(await service.api('POST', '/portals', { name: 'x', folderIds: [] }), 400, 'INVALID_BODY', 'folderIds');
    expectApiError(await service.api('POST', '/portals', { name: 'x', folderIds: [folders['Portal/A']], passcode: '123' }), 400, 'INVALID_BODY', 'passcode');
  });

  // Last: it moves the clock past the admin token's life.
  it('hands out download links a browser can follow without the header, void once the passcode changes', async () => {
    const id = await createPortal({ name: 'Links', folderIds: [folders['Portal/A']], passcode: 'first code' });
    const listed = await visit(`/public/portals/${id}/assets`, 'first code');
    const link: string = listed.body.results.find((asset: { id: string }) => asset.id === assets.a1).downloadUrl;
    expect(new URL(link).searchParams.get('signature')).not.toBeNull();
    const followed = await visit(link);
    expect(followed.status, followed.text).toBe(302);
    expect(Buffer.from(await (await fetch(followed.headers.get('location') ?? '')).arrayBuffer()).equals(bytes)).toBe(true);
    // The link opens this one asset only, and only while it is signed.
    expectApiError(await visit(link.replace(String(assets.a1), String(assets.a2))), 403, 'INVALID_SIGNATURE');
    expectApiError(await visit(link.replace(/signature=[^&]+/, 'signature=AAAA')), 403, 'INVALID_SIGNATURE');
    expectApiError(await visit(`/public/portals/${id}/assets/${String(assets.a1)}/content?passcodeTag=x`), 401, 'PASSCODE_REQUIRED');

    await service.api('PATCH', `/portals/${id}`, { passcode: 'second code' });
    expectApiError(await visit(link), 403, 'SIGNED_URL_EXPIRED', 'passcode has changed');
    expectApiError(await visit(`/public/portals/${id}/assets`, 'first code'), 401, 'PASSCODE_INVALID');
    expect((await visit(`/public/portals/${id}/assets`, 'second code')).status).toBe(200);
    clock.advance(61 * 60_000);
    const fresh = (await visit(`/public/portals/${id}/assets`, 'second code')).body.results[0].downloadUrl;
    expect((await visit(fresh)).status).toBe(302);
    clock.advance(61 * 60_000);
    expectApiError(await visit(fresh), 403, 'SIGNED_URL_EXPIRED');
  });
});

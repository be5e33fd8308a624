import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { randomFile, uploadNewAsset } from '../../support/upload-helpers.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('asset shares and collection shares', () => {
  const clock = fakeClock();
  let service: TestService;
  let member: { userId: string; token: string };
  let viewer: { userId: string; token: string };
  const bytes = randomFile(5000);
  let withFile: string;
  let empty: string;
  beforeAll(async () => {
    service = await startTestService({}, { clock });
    member = await addUser(service, 'member@example.test', 'member');
    viewer = await addUser(service, 'viewer@example.test', 'viewer');
    ({ assetId: withFile } = await uploadNewAsset(service, '/Shared/photo.bin', bytes));
    empty = (await service.api('POST', '/assets-creations', { count: 1 })).body.results[0].result.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  /** An unauthenticated request, as a visitor's browser makes it. */
  const visit = async (path: string): Promise<ApiAnswer> => {
    const response = await fetch(`${service.url}${path}`, { redirect: 'manual' });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };
  const later = (minutes: number): string => new Date(clock.now() + minutes * 60_000).toISOString();

  it('shares assets for download: a visitor lists them by id or slug and downloads through a redirect', async () => {
    const created = await service.api('POST', '/asset-shares', { assetIds: [withFile, empty], access: 'VIEW_AND_DOWNLOAD', slug: 'spring-launch' });
    expect(created.status, created.text).toBe(200);
    const share = created.body.result;
    expect(share).toMatchObject({ assetIds: [withFile, empty], access: 'VIEW_AND_DOWNLOAD', slug: 'spring-launch', slugs: ['spring-launch'], expiresAt: null, expired: false });
    expect(share.url).toBe(`${service.url}/public/asset-shares/spring-launch`);

    for (const key of [share.id, 'spring-launch']) {
      const seen = await visit(`/public/asset-shares/${key}`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.result.assets.totalResults).toBe(2);
      const [first, second] = seen.body.result.assets.results;
      expect(first).toMatchObject({ id: withFile, filename: 'photo.bin', size: 5000, downloadUrl: expect.stringContaining(`/public/asset-shares/${key}/assets/${withFile}/content`) });
      expect(first).not.toHaveProperty('metadata');
      expect(second).toMatchObject({ id: empty, filename: null, downloadUrl: null });
    }
    const first = (await visit('/public/asset-shares/spring-launch')).body.result.assets.results[0];
    const redirect = await fetch(first.downloadUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location') ?? '';
    expect(location).toContain('/files/');
    const file = await fetch(location);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    // Paging, and an asset not in the share.
    const page = await visit('/public/asset-shares/spring-launch?from=1&pageSize=1');
    expect(page.body.result.assets.results.map((asset: { id: string }) => asset.id)).toEqual([empty]);
    expectApiError(await visit(`/public/asset-shares/spring-launch/assets/${UNKNOWN_ID}/content`), 404, 'NOT_FOUND');
    expectApiError(await visit('/public/asset-shares/spring-launch?pageSize=5000'), 400, 'INVALID_QUERY');
  });

  it('keeps a view-only share from downloading', async () => {
    const { body } = await service.api('POST', '/asset-shares', { assetIds: [withFile] });
    expect(body.result.access).toBe('VIEW');
    const seen = await visit(`/public/asset-shares/${body.result.id}`);
    expect(seen.body.result.assets.results[0]).toMatchObject({ id: withFile, downloadUrl: null });
    expectApiError(await visit(`/public/asset-shares/${body.result.id}/assets/${withFile}/content`), 403, 'FORBIDDEN', 'view-only');
  });

  it('keeps old slugs working after a new one, and never gives a slug to another share', async () => {
    const { body } = await service.api('POST', '/asset-shares', { assetIds: [withFile], slug: 'first-name' });
    const id: string = body.result.id;
    const patched = await service.api('PATCH', `/asset-shares/${id}`, { slug: 'second-name', access: 'VIEW_AND_DOWNLOAD' });
    expect(patched.body.result).toMatchObject({ slug: 'second-name', slugs: ['first-name', 'second-name'], access: 'VIEW_AND_DOWNLOAD' });
    for (const key of ['first-name', 'second-name']) expect((await visit(`/public/asset-shares/${key}`)).body.result.id).toBe(id);
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], slug: 'first-name' }), 409, 'SLUG_TAKEN');
    // Dropping the current slug keeps the old ones, and the share's own old slug can come back.
    expect((await service.api('PATCH', `/asset-shares/${id}`, { slug: null })).body.result.slug).toBeNull();
    expect((await visit('/public/asset-shares/second-name')).status).toBe(200);
    expect((await service.api('PATCH', `/asset-shares/${id}`, { slug: 'first-name' })).status).toBe(200);
  });

  it('an expired share is gone for visitors, and shows as expired to its manager', async () => {
    const { body } = await service.api('POST', '/asset-shares', { assetIds: [withFile], access: 'VIEW_AND_DOWNLOAD', slug: 'for-ten-minutes', expiresAt: later(10) });
    const id: string = body.result.id;
    const before = await visit('/public/asset-shares/for-ten-minutes');
    expect(before.status).toBe(200);
    const downloadUrl: string = before.body.result.assets.results[0].downloadUrl;
    expect((await fetch(downloadUrl, { redirect: 'manual' })).status).toBe(302);

    clock.advance(11 * 60_000);
    for (const path of ['/public/asset-shares/for-ten-minutes', `/public/asset-shares/${id}`, new URL(downloadUrl).pathname]) {
      expectApiError(await visit(path), 404, 'NOT_FOUND', 'expired or been revoked');
    }
    expect((await service.api('GET', `/asset-shares/${id}`)).body.result).toMatchObject({ expired: true });
    const expired = await service.api('POST', '/asset-share-searches', { criterion: { type: 'FIELD_EQUALS', field: 'STATUS', value: 'EXPIRED' }, sorts: [] });
    expect(expired.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([id]);
    // Extending it brings it back.
    await service.api('PATCH', `/asset-shares/${id}`, { expiresAt: null });
    expect((await visit('/public/asset-shares/for-ten-minutes')).status).toBe(200);
  });

  it('a revoked (deleted) share answers 404 like an unknown one', async () => {
    const { body } = await service.api('POST', '/asset-shares', { assetIds: [withFile], slug: 'revoke-me' });
    expect((await service.api('DELETE', `/asset-shares/${body.result.id}`)).status).toBe(200);
    expectApiError(await visit('/public/asset-shares/revoke-me'), 404, 'NOT_FOUND');
    expectApiError(await visit(`/public/asset-shares/${body.result.id}`), 404, 'NOT_FOUND');
    expectApiError(await visit('/public/asset-shares/never-was'), 404, 'NOT_FOUND');
    expectApiError(await service.api('GET', `/asset-shares/${body.result.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad bodies, unknown assets, viewers, and shows a share only to its creator and admins', async () => {
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [UNKNOWN_ID] }), 404, 'NOT_FOUND', UNKNOWN_ID);
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], slug: 'No Spaces' }), 400, 'INVALID_BODY', 'slug');
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], slug: UNKNOWN_ID }), 400, 'INVALID_BODY', 'slug');
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], expiresAt: later(-1) }), 400, 'INVALID_BODY', 'past');
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], expiresAt: 'tomorrow' }), 400, 'INVALID_BODY', 'expiresAt');
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile], access: 'EDIT' }), 400, 'INVALID_BODY', 'access');
    expectApiError(await service.api('POST', '/asset-shares', { assetIds: [withFile] }, viewer.token), 403, 'FORBIDDEN');
    const mine = await service.api('POST', '/asset-shares', { assetIds: [withFile] }, member.token);
    expect(mine.status).toBe(200);
    const admins = await service.api('POST', '/asset-shares', { assetIds: [withFile] });
    expectApiError(await service.api('GET', `/asset-shares/${admins.body.result.id}`, undefined, member.token), 404, 'NOT_FOUND');
    expect((await service.api('GET', `/asset-shares/${mine.body.result.id}`)).status).toBe(200);
    const found = await service.api('POST', '/asset-share-searches', { criterion: { type: 'MATCH_ALL' }, sorts: [] }, member.token);
    expect(found.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([mine.body.result.id]);
    expectApiError(await visit(`/asset-shares/${mine.body.result.id}`), 401, 'UNAUTHENTICATED');
  });

  it('searches shares with sorts, by asset and by slug', async () => {
    const a = (await service.api('POST', '/asset-shares', { assetIds: [empty], slug: 'sort-b', expiresAt: later(300) })).body.result.id;
    const b = (await service.api('POST', '/asset-shares', { assetIds: [empty], slug: 'sort-a', expiresAt: later(200) })).body.result.id;
    const onEmpty = { type: 'AND', criteria: [{ type: 'FIELD_EQUALS', field: 'ASSET_ID', value: empty }, { type: 'NOT', criterion: { type: 'FIELD_EQUALS', field: 'ASSET_ID', value: withFile } }] };
    const bySlug = await service.api('POST', '/asset-share-searches', { criterion: onEmpty, sorts: [{ field: 'SLUG', order: 'ASC' }] });
    expect(bySlug.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([b, a]);
    const byExpiry = await service.api('POST', '/asset-share-searches', { criterion: onEmpty, sorts: [{ field: 'EXPIRES_AT', order: 'DESC' }] });
    expect(byExpiry.body.results.map((entry: { result: { id: string } }) => entry.result.id)).toEqual([a, b]);
    const oneSlug = await service.api('POST', '/asset-share-searches', { criterion: { type: 'FIELD_EQUALS', field: 'SLUG', value: 'sort-a' }, sorts: [] });
    expect(oneSlug.body.totalResults).toBe(1);
    expectApiError(await service.api('POST', '/asset-share-searches', { sorts: [] }), 400, 'INVALID_CRITERION');
    expectApiError(await service.api('POST', '/asset-share-searches', { criterion: { type: 'MATCH_ALL' } }), 400, 'INVALID_SORT');
  });

  describe('collection shares', () => {
    let collectionId: string;
    beforeAll(async () => {
      collectionId = (await service.api('POST', '/collections', { name: 'Press kit', description: 'For journalists', assetIds: [withFile] }, member.token)).body.result.id;
    });

    it('shows the collection as it is now, by id or slug', async () => {
      const created = await service.api('POST', '/collection-shares', { collectionId, access: 'VIEW_AND_DOWNLOAD', slug: 'press-kit' }, member.token);
      expect(created.status, created.text).toBe(200);
      expect(created.body.result).toMatchObject({ collectionId, slug: 'press-kit', url: `${service.url}/public/collection-shares/press-kit` });
      const seen = await visit('/public/collection-shares/press-kit');
      expect(seen.body.result).toMatchObject({ collection: { name: 'Press kit', description: 'For journalists' }, assets: { totalResults: 1 } });
      await service.api('POST', `/collections/${collectionId}/assets`, { assetIds: [empty] }, member.token);
      expect((await visit(`/public/collection-shares/${created.body.result.id}`)).body.result.assets.totalResults).toBe(2);
      const [first] = seen.body.result.assets.results;
      const file = await fetch(first.downloadUrl);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
      // An asset share's key is not a collection share's, and the other way round.
      expectApiError(await visit('/public/asset-shares/press-kit'), 404, 'NOT_FOUND');
      // Deleting the collection ends its shares.
      const other = (await service.api('POST', '/collections', { name: 'Short-lived' }, member.token)).body.result.id;
      await service.api('POST', '/collection-shares', { collectionId: other, slug: 'short-lived' }, member.token);
      await service.api('DELETE', `/collections/${other}`, undefined, member.token);
      expectApiError(await visit('/public/collection-shares/short-lived'), 404, 'NOT_FOUND');
    });

    it('lets only those who may share the collection create a share of it', async () => {
      const stranger = await addUser(service, 'stranger@example.test', 'member');
      expectApiError(await service.api('POST', '/collection-shares', { collectionId }, stranger.token), 404, 'NOT_FOUND');
      await service.api('PUT', `/collections/${collectionId}/collaborators/${stranger.userId}`, { role: 'EDITOR' }, member.token);
      expectApiError(await service.api('POST', '/collection-shares', { collectionId }, stranger.token), 403, 'FORBIDDEN');
      expectApiError(await service.api('POST', '/collection-shares', { collectionId: UNKNOWN_ID }, member.token), 404, 'NOT_FOUND');
      const searched = await service.api('POST', '/collection-share-searches', { criterion: { type: 'FIELD_EQUALS', field: 'COLLECTION_ID', value: collectionId }, sorts: [{ field: 'DATE_CREATED' }] }, member.token);
      expect(searched.body.totalResults).toBe(1);
    });
  });
});

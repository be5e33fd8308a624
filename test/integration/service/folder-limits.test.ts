/**
 * Folder limits hold on every route (docs/security.md, "Folder limits"). The matrix walks the service's
 * own route table (RunningService.routes, so a new route is walked too): every route × {admin, member,
 * folder-limited member, viewer, other account, anonymous} × {in scope, out of scope}. The limited
 * member's group gives them /Team; /HRsecret is outside. Each route has one entry in CASES: the kind of
 * thing "in" and "out" of scope name there and how to make the request, and which acts it is (a read,
 * a change, a list); the six roles are expanded from that, with the few exceptions an entry names. A
 * route without an entry fails the test; a route where folder limits do not apply says why in
 * UNSCOPED. Every answer to the limited member and to the other account is also scanned for what is
 * out of their reach (ids and names of /HRsecret and its assets), and batch answers and jobs count by
 * their item's outcome. The stories after the matrix show the escalations it guards against.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { sendParts, uploadNewAsset } from '../../support/upload-helpers.js';
import { finishedJob } from '../../support/account-seed.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../../support/smtp-server.js';
import { signUpAccount } from '../../support/sign-up-account.js';

type Role = 'admin' | 'member' | 'limited' | 'viewer' | 'other' | 'anonymous';
type Where = 'in' | 'out';
const ROLES: readonly Role[] = ['admin', 'member', 'limited', 'viewer', 'other', 'anonymous'];
const PLACES: readonly Where[] = ['in', 'out'];

interface Req {
  path: string;
  body?: unknown;
}
interface Answer {
  status: number;
  text: string;
  body: any;
}
/**
 * - read: looks at one thing (admins, members and viewers alike; out of scope is 404 to the limited member);
 * - change: changes or aims at one thing (viewers 403; out of scope is 404 to the limited member);
 * - list: lists or searches (everyone 200; what is out of reach never shows).
 * Another account's member gets 404 on reads and changes (the ids are not theirs), 200 on lists.
 */
type Act = 'read' | 'change' | 'list';
type Expected = number | { in: number; out: number };
interface ScopedCase {
  /** What "in scope" and "out of scope" name for this route. */
  kind: string;
  act: Act;
  request(where: Where): Promise<Req> | Req;
  /** Where a role is answered otherwise than its act says, and why (in the entry's comment). */
  roles?: Partial<Record<Role, Expected>>;
  /** A further look at the outcome; returns a problem or undefined. */
  check?(where: Where, role: Role, answer: Answer): Promise<string | undefined> | string | undefined;
}

const MARK_OUT = 'HRsecret';

describe('folder limits on every route', () => {
  let service: TestService;
  let smtp: TestSmtp;
  const tokens: Partial<Record<Role, string>> = {};
  const userIds: Partial<Record<Role, string>> = {};
  let foldersField: string;
  let keywordsField: string;
  let otherFolders: string;
  const folder: Record<Where, string> = { in: '', out: '' };
  const asset: Record<Where, string> = { in: '', out: '' };
  const file: Record<Where, string> = { in: '', out: '' };
  const area: Record<Where, string> = { in: '', out: '' };
  const comment: Record<Where, string> = { in: '', out: '' };
  let mixed: string;
  let bothGroup: string;
  /** Everything out of the limited member's reach: their answers must name none of it. */
  const hidden = new Set<string>();
  let fresh = 0;
  const unique = (prefix: string): string => `${prefix}-${++fresh}`;

  const asAdmin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await service.api(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  const hide = <T extends string>(where: Where, id: T): T => {
    if (where === 'out') hidden.add(id);
    return id;
  };

  // Fresh things for changes that use them up (deletions, moves), made by the admin.
  const freshFolder = (where: Where): string => {
    const { ctx } = service.running;
    const account = ctx.accounts.bySubdomain('local');
    if (account === undefined) throw new Error('no local account');
    return hide(where, ctx.fieldOptions.create({ account_id: account.id, field_id: foldersField, parent_id: folder[where], value: unique('sub') }).id);
  };
  const freshAsset = async (where: Where): Promise<string> => {
    const id = (await asAdmin('POST', '/assets-creations', { count: 1 })).results[0].result.id;
    await asAdmin('PATCH', `/assets/${id}`, { metadata: { values: { [foldersField]: [folder[where]] } } });
    return hide(where, id);
  };
  const freshFile = async (where: Where): Promise<string> => {
    const uploaded = await uploadNewAsset(service, `/${where === 'in' ? 'Team' : MARK_OUT}/${unique('file')}.bin`, Buffer.from('fresh'));
    // A second file, so the asset keeps one when this one goes.
    await uploadNewAssetVersion(uploaded.assetId);
    hide(where, uploaded.assetId);
    return hide(where, uploaded.asset.currentAssetFile.id);
  };
  const uploadNewAssetVersion = async (assetId: string): Promise<void> => {
    const job = await asAdmin('POST', '/asset-upload-batch-jobs', { items: [{ batchItemId: 'v', assetId, assetFileId: null, size: 1, partUrlsRequest: { urlRequests: [] } }] });
    const done = await finishedJob(service, '/asset-upload-batch-jobs', job.result.id);
    const upload = done.successes.v.upload;
    await asAdmin('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: await sendParts(upload, Buffer.from('v')) });
  };
  /** A collection of the admin's holding both assets, the member and the limited member its editors, the viewer its viewer. */
  const freshCollection = async (): Promise<string> => {
    const id = (await asAdmin('POST', '/collections', { name: unique('Mixed'), assetIds: [asset.in, asset.out] })).result.id;
    await asAdmin('PUT', `/collections/${id}/collaborators/${userIds.member}`, { role: 'EDITOR' });
    await asAdmin('PUT', `/collections/${id}/collaborators/${userIds.limited}`, { role: 'EDITOR' });
    await asAdmin('PUT', `/collections/${id}/collaborators/${userIds.viewer}`, { role: 'VIEWER' });
    return id;
  };
  const freshArea = async (where: Where): Promise<string> =>
    hide(where, (await asAdmin('POST', `/assets/${asset[where]}/saved-crop-areas`, { name: unique('area'), x: 0, y: 0, width: 1, height: 1 })).result.id);
  const countFor = async (role: Role, id: string): Promise<number> => (await call(role, 'GET', `/collections/${id}`)).body.result?.numberOfAssets;
  /** Every collection in an answer to the limited member counts only the assets they reach. */
  const countsForLimited = async (_where: Where, role: Role, answer: Answer): Promise<string | undefined> => {
    if (role !== 'limited' || answer.status !== 200) return undefined;
    const collections: ({ id: string; numberOfAssets: number } | undefined)[] = (answer.body.results ?? [answer.body]).map((entry: any) => entry.result);
    if (collections.length === 0 || collections.some((collection) => typeof collection?.numberOfAssets !== 'number')) return `no collections in ${answer.text.slice(0, 200)}`;
    for (const collection of collections) {
      if (collection === undefined) continue;
      const listed: string[] = (await call('limited', 'GET', `/collections/${collection.id}/assets`)).body.result.assetIds;
      const reached = listed.filter((id) => !hidden.has(id)).length;
      if (collection.numberOfAssets !== reached) return `the limited member is told of ${collection.numberOfAssets} assets in ${collection.id}, and reaches ${reached}`;
    }
    return undefined;
  };
  const job = (items: unknown[]) => ({ items });
  const selector = (where: Where) => ({ selector: { type: 'BY_IDS', assetIds: [asset[where]] } });

  const CASES: Record<string, ScopedCase> = {
    // Folders: the options of the Folders field.
    'GET /field-options/:id': { kind: 'folder', act: 'read', request: (where) => ({ path: `/field-options/${folder[where]}` }) },
    'POST /field-option-searches': {
      kind: 'folders listed, and one asked for by id',
      act: 'list',
      request: (where) => ({ path: '/field-option-searches', body: { criterion: where === 'in' ? { type: 'FIELD_EQUALS', field: 'FIELD_ID', value: foldersField } : { type: 'FIELD_EQUALS', field: 'ID', value: folder.out } } }),
    },
    'POST /field-option-batches': {
      kind: 'the parent of a new folder',
      act: 'change',
      request: (where) => ({ path: '/field-option-batches', body: { items: [{ batchItemId: 'x', fieldId: foldersField, value: unique('new'), parentId: folder[where] }] } }),
      // A parent the caller cannot see is answered like one that does not exist: 400, as for any unknown parent.
      roles: { limited: { in: 200, out: 400 } },
    },
    'PATCH /field-options/:id': {
      kind: 'a folder renamed (in) or moved under /Team (out)',
      act: 'change',
      request: (where) => ({ path: `/field-options/${freshFolder(where)}`, body: where === 'in' ? { value: unique('renamed') } : { parentId: folder.in } }),
    },
    'DELETE /field-options/:id': { kind: 'an empty folder', act: 'change', request: (where) => ({ path: `/field-options/${freshFolder(where)}` }) },

    // Assets and their files.
    'GET /assets/:id': { kind: 'asset', act: 'read', request: (where) => ({ path: `/assets/${asset[where]}` }) },
    'PATCH /assets/:id': { kind: 'asset', act: 'change', request: (where) => ({ path: `/assets/${asset[where]}`, body: { metadata: { values: { [keywordsField]: [unique('kw')] } } } }) },
    'DELETE /assets/:id': { kind: 'asset', act: 'change', request: async (where) => ({ path: `/assets/${await freshAsset(where)}` }) },
    'GET /assets/:id/files': { kind: 'asset', act: 'read', request: (where) => ({ path: `/assets/${asset[where]}/files` }) },
    'DELETE /asset-files/:id': { kind: 'a file of an asset', act: 'change', request: async (where) => ({ path: `/asset-files/${await freshFile(where)}` }) },
    'POST /assets-creations': {
      kind: 'none: the asset made is in no folder',
      act: 'change',
      request: () => ({ path: '/assets-creations', body: { count: 1 } }),
      // An asset in no folder is outside every limit (403 FOLDER_OUT_OF_SCOPE); another account makes its own.
      roles: { limited: 403, other: 200 },
    },
    'POST /asset-searches': {
      kind: 'every asset, and one asked for by id',
      act: 'list',
      request: (where) => ({ path: '/asset-searches', body: { criterion: where === 'in' ? { type: 'MATCH_ALL' } : { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: [asset.out] }, sorts: [] } }),
    },
    'POST /asset-scroll-searches': { kind: 'every asset', act: 'list', request: () => ({ path: '/asset-scroll-searches', body: { criterion: { type: 'MATCH_ALL' }, sorts: [] } }) },
    'POST /asset-scroll-search-scrolls': {
      kind: "the admin's scroll over every asset, continued",
      act: 'list',
      request: async () => ({ path: '/asset-scroll-search-scrolls', body: { scrollId: (await asAdmin('POST', '/asset-scroll-searches', { pageSize: 1, criterion: { type: 'MATCH_ALL' }, sorts: [] })).scrollId } }),
      // A scroll belongs to the account and caller that began it.
      roles: { member: 404, limited: 404, viewer: 404, other: 404 },
    },
    'POST /asset-uploads': { kind: 'a new version of an asset', act: 'change', request: (where) => ({ path: '/asset-uploads', body: { assetId: asset[where], assetFileId: null, size: 10 } }) },
    'POST /asset-upload-completions': {
      kind: "an asset's upload completed",
      act: 'change',
      request: (where) => ({ path: '/asset-upload-completions', body: { assetId: asset[where], uploadId: 'no-such-upload', parts: [{ partNumber: 1, eTag: 'x' }] } }),
      // No such upload for anyone who may reach the asset; the asset itself is 404 to those who may not.
      roles: { admin: 404, member: 404, limited: 404 },
    },
    'POST /asset-and-upload-batch-jobs': {
      kind: 'the folder of a new asset, by path',
      act: 'change',
      request: (where) => ({ path: '/asset-and-upload-batch-jobs', body: job([{ batchItemId: 'x', path: `/${where === 'in' ? 'Team' : MARK_OUT}/${unique('new')}.bin`, size: 1 }]) }),
      // A path names folders: outside the scope it is refused as such (a new folder there would be too); another account makes its own.
      roles: { limited: { in: 200, out: 403 }, other: 200 },
    },
    'POST /asset-upload-batch-jobs': { kind: 'a new version of an asset', act: 'change', request: (where) => ({ path: '/asset-upload-batch-jobs', body: job([{ batchItemId: 'x', assetId: asset[where], assetFileId: null, size: 1 }]) }) },
    'POST /asset-download-batch-jobs': { kind: 'an asset downloaded', act: 'read', request: (where) => ({ path: '/asset-download-batch-jobs', body: job([{ batchItemId: 'x', assetId: asset[where], assetFileId: null }]) }) },
    'POST /preset-transformations-for-asset-searches': {
      kind: 'an asset',
      act: 'read',
      request: (where) => ({ path: '/preset-transformations-for-asset-searches', body: { assetIds: [asset[where]] } }),
      // Answers every id asked: one out of reach gets no presets, exactly as an id that does not exist.
      roles: { limited: 200, other: 200 },
    },
    'GET /assets/:id/saved-crop-areas': { kind: 'asset', act: 'read', request: (where) => ({ path: `/assets/${asset[where]}/saved-crop-areas` }) },
    'POST /assets/:id/saved-crop-areas': { kind: 'asset', act: 'change', request: (where) => ({ path: `/assets/${asset[where]}/saved-crop-areas`, body: { name: unique('area'), x: 0, y: 0, width: 1, height: 1 } }) },
    'GET /asset-saved-crop-areas/:id': { kind: 'crop area of an asset', act: 'read', request: (where) => ({ path: `/asset-saved-crop-areas/${area[where]}` }) },
    'PATCH /asset-saved-crop-areas/:id': { kind: 'crop area of an asset', act: 'change', request: (where) => ({ path: `/asset-saved-crop-areas/${area[where]}`, body: { name: unique('area') } }) },
    'DELETE /asset-saved-crop-areas/:id': { kind: 'crop area of an asset', act: 'change', request: async (where) => ({ path: `/asset-saved-crop-areas/${await freshArea(where)}` }) },
    'GET /assets/:id/comments': { kind: 'asset', act: 'read', request: (where) => ({ path: `/assets/${asset[where]}/comments` }) },
    'POST /assets/:id/comments': {
      kind: 'asset',
      act: 'change',
      request: (where) => ({ path: `/assets/${asset[where]}/comments`, body: { text: 'a word' } }),
      // Viewers may comment on what they see.
      roles: { viewer: 200 },
    },
    'PATCH /comments/:id': {
      kind: "the admin's comment on an asset",
      act: 'change',
      request: (where) => ({ path: `/comments/${comment[where]}`, body: { text: 'edited' } }),
      // Only its author and admins edit a comment.
      roles: { member: 403, limited: { in: 403, out: 404 } },
    },
    'DELETE /comments/:id': {
      kind: "the admin's comment on an asset",
      act: 'change',
      request: async (where) => ({ path: `/comments/${hide(where, (await asAdmin('POST', `/assets/${asset[where]}/comments`, { text: 'doomed' })).result.id)}` }),
      roles: { member: 403, limited: { in: 403, out: 404 } },
    },

    // Batch jobs over assets: the item's outcome counts.
    'POST /asset-metadata-edit-batch-jobs': {
      kind: 'asset',
      act: 'change',
      request: (where) => ({ path: '/asset-metadata-edit-batch-jobs', body: { ...selector(where), metadataFieldValueUpdates: [{ fieldId: keywordsField, type: 'BY_VALUES', values: ['tagged'], operation: 'ADD' }] } }),
      // Another account's keywords field is not its own: refused (400, naming the field) before the job is made.
      roles: { other: 400 },
    },
    'POST /asset-lifecycle-transition-batch-jobs': { kind: 'asset', act: 'change', request: (where) => ({ path: '/asset-lifecycle-transition-batch-jobs', body: { ...selector(where), targetState: 'LIVE' } }) },
    'POST /asset-deletion-batch-jobs': { kind: 'asset', act: 'change', request: async (where) => ({ path: '/asset-deletion-batch-jobs', body: { selector: { type: 'BY_IDS', assetIds: [await freshAsset(where)] } } }) },
    'POST /asset-metadata-suggestion-batch-jobs': { kind: 'asset', act: 'change', request: (where) => ({ path: '/asset-metadata-suggestion-batch-jobs', body: selector(where) }) },
    'POST /rejected-asset-metadata-suggestion-batches': {
      kind: 'asset',
      act: 'change',
      request: (where) => ({ path: '/rejected-asset-metadata-suggestion-batches', body: { items: [{ batchItemId: 'x', assetId: asset[where], fieldId: keywordsField, value: unique('no') }] } }),
    },

    // Collections' contents.
    'POST /collections': { kind: 'an asset put in a new collection', act: 'change', request: (where) => ({ path: '/collections', body: { name: unique('Mine'), assetIds: [asset[where]] } }) },
    'GET /collections/:id': { kind: 'a collection holding both assets', act: 'list', request: () => ({ path: `/collections/${mixed}` }), roles: { other: 404 }, check: countsForLimited },
    'GET /collections/:id/assets': { kind: 'a collection holding both assets', act: 'list', request: () => ({ path: `/collections/${mixed}/assets` }), roles: { other: 404 } },
    'PATCH /collections/:id': {
      kind: 'a collection holding both assets',
      act: 'change',
      request: () => ({ path: `/collections/${mixed}`, body: { description: unique('said') } }),
      // The limited member edits the collection (an editor) and is told only of what they reach.
      roles: { limited: 200 },
      check: countsForLimited,
    },
    'DELETE /collections/:id': {
      kind: 'a collection holding both assets',
      act: 'change',
      request: async () => ({ path: `/collections/${await freshCollection()}` }),
      // Only its owner and admins delete a collection.
      roles: { member: 403, limited: 403 },
    },
    'POST /collections/:id/assets': { kind: 'an asset added to a collection', act: 'change', request: (where) => ({ path: `/collections/${mixed}/assets`, body: { assetIds: [asset[where]] } }), check: countsForLimited },
    'POST /collections/:id/asset-removals': {
      kind: 'an asset taken out of a collection',
      act: 'change',
      request: async (where) => ({ path: `/collections/${await freshCollection()}/asset-removals`, body: { assetIds: [asset[where]] } }),
      // What the limited member cannot see is not there for them to remove: 200, and it stays.
      roles: { limited: 200 },
      async check(where, role, answer) {
        if (role !== 'limited' || where !== 'out') return undefined;
        const id = /"id":"([^"]+)"/.exec(answer.text)?.[1] ?? '';
        const left = await countFor('admin', id);
        return left === 2 ? undefined : `the limited member took an asset they cannot see out of a collection (${left} left)`;
      },
    },
    'PUT /collections/:id/collaborators/:userId': {
      kind: 'a collection holding both assets',
      act: 'change',
      request: async () => ({ path: `/collections/${await freshCollection()}/collaborators/${userIds.member}`, body: { role: 'VIEWER' } }),
      roles: { member: 403, limited: 403 },
    },
    'DELETE /collections/:id/collaborators/:userId': {
      kind: 'a collection holding both assets',
      act: 'change',
      request: async () => ({ path: `/collections/${await freshCollection()}/collaborators/${userIds.member}` }),
      roles: { member: 403, limited: 403 },
    },
    'POST /collection-searches': { kind: 'collections holding both assets', act: 'list', request: () => ({ path: '/collection-searches', body: { criterion: { type: 'MATCH_ALL' }, sorts: [] } }), check: countsForLimited },

    // Shares, portals and guest links aimed at something.
    'POST /asset-shares': { kind: 'the asset shared', act: 'change', request: (where) => ({ path: '/asset-shares', body: { assetIds: [asset[where]] } }) },
    'POST /collection-shares': {
      kind: 'a collection holding both assets',
      act: 'change',
      request: () => ({ path: '/collection-shares', body: { collectionId: mixed } }),
      // Only its owner and admins share a collection (the stories below: a limited owner's share shows what they reach).
      roles: { member: 403, limited: 403 },
    },
    'POST /asset-share-searches': { kind: 'shares', act: 'list', request: () => ({ path: '/asset-share-searches', body: { criterion: { type: 'MATCH_ALL' }, sorts: [] } }) },
    'POST /collection-share-searches': { kind: 'shares', act: 'list', request: () => ({ path: '/collection-share-searches', body: { criterion: { type: 'MATCH_ALL' }, sorts: [] } }) },
    'POST /portals': {
      kind: 'the folder a portal shows',
      act: 'change',
      request: (where) => ({ path: '/portals', body: { name: unique('Portal'), folderIds: [folder[where]] } }),
      // Only admins manage portals.
      roles: { member: 403, limited: 403 },
    },
    'PATCH /portals/:id': {
      kind: 'the folder a portal shows',
      act: 'change',
      request: async (where) => ({ path: `/portals/${(await asAdmin('POST', '/portals', { name: unique('Portal'), folderIds: [folder.in] })).result.id}`, body: { folderIds: [folder[where]] } }),
      // Admins only: to others a portal does not exist.
      roles: { member: 404, limited: 404, viewer: 404 },
    },
    'POST /guest-uploads': { kind: 'the folder a guest link uploads into', act: 'change', request: (where) => ({ path: '/guest-uploads', body: { name: unique('Drop'), folderId: folder[where] } }) },

    // Groups name folders: shown to every member, a limited one sees only the folders they may see.
    'GET /groups': { kind: "groups, one of them given /HRsecret", act: 'list', request: () => ({ path: '/groups' }) },
    'GET /groups/:id': { kind: 'a group given /Team and /HRsecret', act: 'list', request: () => ({ path: `/groups/${bothGroup}` }), roles: { other: 404 } },

    // Admin-only reads that name assets.
    'POST /asset-download-event-searches': {
      kind: 'download events',
      act: 'list',
      request: () => ({ path: '/asset-download-event-searches', body: { criterion: { type: 'MATCH_ALL' }, sorts: [] } }),
      // Only admins read download events, and admins are never limited.
      roles: { member: 403, limited: 403, viewer: 403 },
    },
  };

  const UNSCOPED: Record<string, string> = {
    'GET /health': 'public liveness',
    'GET /.well-known/jwks.json': 'public OAuth metadata',
    'GET /.well-known/oauth-authorization-server': 'public OAuth metadata',
    'GET /.well-known/asset-sync': 'public service features',
    'GET /authorize': 'OAuth sign-in page, before there is a caller',
    'POST /authorize': 'OAuth sign-in form, before there is a caller',
    'POST /oauth/token': 'token exchange, before there is a caller',
    'POST /oauth/revoke': 'ends a sign-in by its token, bound to the client, not to a caller',
    'POST /accounts': 'sign-up, before there is a caller',
    'POST /account-confirmations': 'confirms a sign-up by its mailed code, before there is a caller',
    'POST /subdomain-availability-checks': 'public sign-up helper',
    'POST /account-invite-requests': 'public request to join an account',
    'POST /publicly-available-account-data-searches': "an account's public data",
    'GET /current-user': 'the caller themselves',
    'GET /fields': 'the schema: fields, not their options or values',
    'POST /fields': 'the schema',
    'GET /fields/:id': 'the schema',
    'PATCH /fields/:id': 'the schema',
    'DELETE /fields/:id': 'the schema',
    'GET /folder-settings': "the Folders field's id, not its folders",
    'GET /custom-integration-settings': 'account settings',
    'PUT /custom-integration-settings': 'account settings',
    'GET /grouped-preset-transformations': 'presets: no asset or folder',
    'POST /preset-transformation-searches': 'presets: no asset or folder',
    'GET /change-events': 'names kinds of change and a cursor, never an id or a name',
    'GET /portals': 'admins only (portal-routes.ts), and admins are never limited',
    'GET /portals/:id': 'admins only, and admins are never limited',
    'DELETE /portals/:id': 'admins only, and admins are never limited',
    'GET /asset-shares/:id': "its creator and admins only: its assets were checked against the creator's reach when it was made",
    'PATCH /asset-shares/:id': 'its creator and admins only: access, slug and expiry, not what it shows',
    'DELETE /asset-shares/:id': 'its creator and admins only',
    'GET /collection-shares/:id': 'its creator and admins only: it names the collection, not its assets',
    'PATCH /collection-shares/:id': 'its creator and admins only: access, slug and expiry, not what it shows',
    'DELETE /collection-shares/:id': 'its creator and admins only',
    'GET /guest-uploads': "its creators' and admins' links: each was aimed at a folder in its creator's reach",
    'GET /guest-uploads/:id': 'its creator and admins only',
    'PATCH /guest-uploads/:id': 'its creator and admins only: name, limits and expiry; its folder cannot change',
    'DELETE /guest-uploads/:id': 'its creator and admins only',
    'GET /asset-and-upload-batch-jobs/:id': "its creator only (job-routes.ts): its items were checked against the creator's reach when it was made",
    'GET /asset-upload-batch-jobs/:id': 'its creator only',
    'GET /asset-download-batch-jobs/:id': 'its creator only',
    'GET /asset-metadata-edit-batch-jobs/:id': 'its creator only',
    'GET /asset-lifecycle-transition-batch-jobs/:id': 'its creator only',
    'GET /asset-deletion-batch-jobs/:id': 'its creator only',
    'GET /asset-metadata-suggestion-batch-jobs/:id': 'its creator only',
    'POST /asset-staging-workflow-transition-batch-jobs': 'the V1 path: 400 for every body, before anything is read',
    'GET /asset-staging-workflow-transition-batch-jobs/:id': 'the V1 path: 400 for every id',
    'POST /groups': 'admins only',
    'PATCH /groups/:id': 'admins only',
    'DELETE /groups/:id': 'admins only',
    'GET /users/:id': 'people, not folders or assets',
    'POST /user-searches': 'people, not folders or assets',
    'GET /saved-searches': "its owner's only; the criterion runs with the caller's reach (search compiler)",
    'POST /saved-searches': "its owner's only",
    'GET /saved-searches/:id': "its owner's only",
    'PATCH /saved-searches/:id': "its owner's only",
    'DELETE /saved-searches/:id': "its owner's only",
    'POST /saved-searches/:id/results': "its owner's only; runs through the search compiler with the caller's reach, as POST /asset-searches",
    'GET /search-filters': 'the schema',
    'GET /search-filter-view': 'the schema',
    'POST /search-filter-view/search-filters': 'the schema',
    'PATCH /search-filter-view/search-filters/:id': 'the schema',
    'DELETE /search-filter-view/search-filters/:id': 'the schema',
    'GET /field-views': 'the schema',
    'POST /field-views': 'the schema',
    'GET /field-views/:id': 'the schema',
    'PATCH /field-views/:id': 'the schema',
    'DELETE /field-views/:id': 'the schema',
    'POST /reference-image-uploads': 'reference images belong to no folder',
    'POST /external-app-users': 'account administration',
    'POST /external-app-sso-tokens': 'account administration',
    'GET /external-app-accounts': 'account administration',
    'POST /external-app-accounts': 'account administration',
    'GET /subscription': 'account administration',
    'DELETE /subscription': 'account administration',
    'GET /subscription-usage': 'account administration: counts of the whole account, for admins',
    'GET /subscription-estimate': 'account administration',
    'POST /subscription-intents': 'account administration',
    'GET /subscription-intents/:id': 'account administration',
    'PATCH /subscription-intents/:id': 'account administration',
    'GET /account-security': 'account settings',
    'PUT /account-security': 'account settings',
    'GET /auto-tagging-image-settings': 'account settings',
    'PATCH /auto-tagging-image-settings': 'account settings',
    'GET /text-in-image-settings': 'account settings',
    'PATCH /text-in-image-settings': 'account settings',
    'GET /storefront-sku-settings': 'account settings',
    'PUT /storefront-sku-settings': 'account settings',
    'DELETE /storefront-sku-settings': 'account settings',
    'PUT /allowed-login-methods': 'account settings',
    'GET /onboarding-checklist': 'account settings',
    'PATCH /onboarding-checklist': 'account settings',
    'GET /account-terms-and-conditions/:id': 'terms, public by the spec',
    'PUT /account-terms-and-conditions/:id': 'account settings',
    'DELETE /account-terms-and-conditions/:id': 'account settings',
    'POST /account-terms-and-conditions/:id/acceptances': 'the caller accepting terms',
    'GET /staff-members': 'installation staff',
    'POST /staff-members': 'installation staff',
    'DELETE /staff-members/:id': 'installation staff',
    'GET /staff-sign-ins': 'installation staff',
    'GET /admin/accounts/:accountId/entities/:id/quota-override': 'installation staff',
    'PUT /admin/accounts/:accountId/entities/:id/quota-override': 'installation staff',
    // Signed URLs and visitors' routes: no caller; their credential is a signature or a link's key,
    // handed out only by the scoped routes above. The stories below check what the public ones show.
    'GET /files/:fileId/content': 'signed URL, issued by a scoped download',
    'GET /files/:fileId/renditions/:key': 'signed URL, issued by a scoped download',
    'GET /previews/:name': 'signed URL, issued with a scoped asset',
    'GET /download-zips/:zipId': 'signed URL, issued by a scoped download job',
    'PUT /upload-parts/:uploadId/:partNumber': 'signed URL, issued by a scoped upload',
    'PUT /reference-images/:key': 'signed URL',
    'GET /public/asset-shares/:key': "a visitor's: shows what the share's creator reaches (story below)",
    'GET /public/asset-shares/:key/assets/:assetId/content': "a visitor's, as GET /public/asset-shares/:key",
    'GET /public/collection-shares/:key': "a visitor's: shows what the share's creator reaches (story below)",
    'GET /public/collection-shares/:key/assets/:assetId/content': "a visitor's, as GET /public/collection-shares/:key",
    'GET /public/portals/:id': "a visitor's: a portal shows its folders, which an admin chose (story below)",
    'GET /public/portals/:id/assets': "a visitor's, as GET /public/portals/:id",
    'GET /public/portals/:id/assets/:assetId/content': "a visitor's, as GET /public/portals/:id",
    'GET /public/guest-uploads/:key': "a guest's: the link's folder was checked when it was made",
    'POST /public/guest-uploads/:key/uploads': "a guest's: uploads as the link's creator, within their reach",
    'POST /public/guest-uploads/:key/completions': "a guest's: uploads as the link's creator, within their reach",
  };
  /** Routes without a bearer token, where an anonymous caller is not refused with 401. */
  const PUBLIC = /^(GET|POST|PUT) \/(health|\.well-known|authorize|oauth|accounts$|account-confirmations$|subdomain-availability|account-invite|publicly-available|account-terms-and-conditions\/:id$|files|previews|download-zips|upload-parts|reference-images\/|public\/)/;

  const call = async (role: Role, method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = {};
    const token = tokens[role];
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${service.url}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body), redirect: 'manual' });
    const text = method === 'HEAD' ? '' : await response.text();
    let parsed: any = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the status and text are what count.
    }
    return { status: response.status, text, body: parsed };
  };

  /** The status that counts: a batch's or a job's one item's, else the answer's. */
  const outcomeOf = async (role: Role, method: string, route: string, answer: Answer): Promise<{ status: number; text: string }> => {
    let outcome = answer.body;
    let text = answer.text;
    if (answer.status === 200 && method === 'POST' && route.endsWith('-batch-jobs')) {
      outcome = await finishedJob(service, route, answer.body.result.id, tokens[role]);
      text = JSON.stringify(outcome);
    }
    const failures = Object.values<{ status: number }>(outcome?.failures ?? {});
    const succeeded = Object.keys(outcome?.successes ?? {}).length > 0;
    return { status: answer.status === 200 && failures.length > 0 && !succeeded ? (failures[0]?.status ?? 0) : answer.status, text };
  };

  const expected = (entry: ScopedCase, role: Role, where: Where): number => {
    if (role === 'anonymous') return 401;
    const special = entry.roles?.[role];
    if (special !== undefined) return typeof special === 'number' ? special : special[where];
    if (role === 'other') return entry.act === 'list' ? 200 : 404;
    if (role === 'viewer' && entry.act === 'change') return 403;
    if (role === 'limited' && where === 'out' && entry.act !== 'list') return 404;
    return 200;
  };

  /** What out of the caller's reach an answer names (what they sent themselves aside). */
  const leaksIn = (text: string, sent: string): string[] => {
    const found = [...hidden].filter((id) => text.includes(id) && !sent.includes(id));
    if (text.includes(MARK_OUT) && !sent.includes(MARK_OUT)) found.push(`the name ${MARK_OUT}`);
    return found;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
    tokens.admin = await service.token();
    userIds.admin = service.running.ctx.accounts.userByEmail(service.running.ctx.config.adminEmail)?.id ?? '';
    for (const [role, accountRole] of [['member', 'member'], ['limited', 'member'], ['viewer', 'viewer']] as const) {
      const user = await addUser(service, `${role}@example.test`, accountRole);
      tokens[role] = user.token;
      userIds[role] = user.userId;
    }
    const otherAdmin = (await signUpAccount(service, smtp, { subdomain: 'other', name: 'Other', email: 'boss@other.test', password: 'a long enough password' })).adminUserId;
    tokens.other = await service.running.ctx.tokens.issue({ sub: otherAdmin, scope: 'subdomain:other' }, 3600);

    foldersField = (await asAdmin('GET', '/folder-settings')).result.fieldId;
    keywordsField = (await asAdmin('GET', '/fields')).find((field: { name: string }) => field.name === 'Keywords').id;
    otherFolders = (await call('other', 'GET', '/folder-settings')).body.result.fieldId;
    for (const where of PLACES) {
      const uploaded = await uploadNewAsset(service, `/${where === 'in' ? 'Team' : MARK_OUT}/${where}side.bin`, Buffer.from(where));
      asset[where] = hide(where, uploaded.assetId);
      file[where] = hide(where, uploaded.asset.currentAssetFile.id);
      folder[where] = hide(where, uploaded.asset.metadata.values[foldersField][0]);
    }
    await asAdmin('POST', '/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [asset.in, asset.out] }, targetState: 'LIVE' });
    await service.running.jobsIdle();
    for (const where of PLACES) {
      area[where] = await freshArea(where);
      comment[where] = hide(where, (await asAdmin('POST', `/assets/${asset[where]}/comments`, { text: 'kept' })).result.id);
    }
    mixed = await freshCollection();
    // The limited member's group gives them /Team; another, without them, both folders.
    await asAdmin('POST', '/groups', { name: 'Team only', memberIds: [userIds.limited], folderIds: [folder.in] });
    bothGroup = (await asAdmin('POST', '/groups', { name: 'Both', folderIds: [folder.in, folder.out] })).result.id;
  }, 60_000);
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });

  it('answers every route × role × scope as the policy says', async () => {
    const uncovered: string[] = [];
    const problems: string[] = [];
    let calls = 0;
    for (const route of service.running.routes) {
      const name = `${route.method} ${route.url}`;
      // A HEAD route answers as its GET.
      const entryName = route.method === 'HEAD' ? `GET ${route.url}` : name;
      const entry = CASES[entryName];
      if (entry === undefined) {
        if (UNSCOPED[entryName] === undefined) uncovered.push(name);
        else if (!PUBLIC.test(entryName)) {
          // Folder limits do not apply; a caller is still needed.
          const answer = await call('anonymous', route.method, route.url.replace(/:[^/]+/g, 'x'), route.body === undefined ? undefined : {});
          calls++;
          if (answer.status !== 401) problems.push(`${name} anonymous: ${answer.status}, not 401`);
        }
        continue;
      }
      for (const where of PLACES) {
        for (const role of ROLES) {
          const request = await entry.request(where);
          const answer = await call(role, route.method, request.path, request.body);
          calls++;
          const outcome = await outcomeOf(role, route.method, route.url, answer);
          const want = expected(entry, role, where);
          const label = `${name} [${entry.kind}] ${role} ${where}`;
          if (outcome.status !== want) problems.push(`${label}: ${outcome.status}, not ${want}: ${outcome.text.slice(0, 200)}`);
          if (role === 'limited' || role === 'other') {
            const leaks = leaksIn(outcome.text, `${request.path}${JSON.stringify(request.body ?? null)}`);
            if (leaks.length > 0) problems.push(`${label} shows what is out of reach: ${leaks.join(', ')}`);
          }
          // A HEAD answer has no body to look into.
          const more = route.method === 'HEAD' ? undefined : await entry.check?.(where, role, answer);
          if (more !== undefined) problems.push(`${label}: ${more}`);
        }
      }
    }
    expect(uncovered, 'routes with no case: add each to CASES, or to UNSCOPED with the reason').toEqual([]);
    expect(problems).toEqual([]);
    // The matrix really ran: every route of the table, in and out of scope for every role.
    expect(calls).toBeGreaterThan(600);
  }, 120_000);

  describe('stories', () => {
    const escalated = (answer: Answer) => `${answer.status} ${answer.text.slice(0, 200)}`;

    it("does not let a limited member move, rename, delete or create under a folder out of reach, and keeps a portal on /Team to /Team's assets", async () => {
      const portal = (await asAdmin('POST', '/portals', { name: 'Team portal', folderIds: [folder.in] })).result.id;
      const moved = await call('limited', 'PATCH', `/field-options/${folder.out}`, { parentId: folder.in });
      expect(moved.status, escalated(moved)).toBe(404);
      expect((await call('limited', 'PATCH', `/field-options/${folder.out}`, { value: 'Mine now' })).status).toBe(404);
      expect((await call('limited', 'DELETE', `/field-options/${folder.out}`)).status).toBe(404);
      // Still out of reach: its asset unreadable, undownloadable, and not on the portal.
      expect((await call('limited', 'GET', `/assets/${asset.out}`)).status).toBe(404);
      const listed = await call('anonymous', 'GET', `/public/portals/${portal}/assets`);
      expect(listed.status).toBe(200);
      expect(listed.text).toContain(asset.in);
      expect(listed.text).not.toContain(asset.out);
      expect((await service.api('GET', `/field-options/${folder.out}`)).body.result.parent).toBeNull();
    });

    it('refuses what a limited member sees but may not change with 403 FOLDER_OUT_OF_SCOPE and what to do', async () => {
      const refusals: [string, string, unknown][] = [
        // Their group's own folder stays where an admin put it, named as an admin named it.
        ['PATCH', `/field-options/${folder.in}`, { value: 'Renamed team' }],
        ['DELETE', `/field-options/${folder.in}`, undefined],
        // Nothing leaves the scope: not to the top level.
        ['PATCH', `/field-options/${freshFolder('in')}`, { parentId: null }],
        ['POST', '/field-option-batches', { items: [{ batchItemId: 'x', fieldId: foldersField, value: 'Top' }] }],
      ];
      for (const [method, path, body] of refusals) {
        const answer = await call('limited', method, path, body);
        const refusal = answer.body.failures?.x ?? answer.body;
        expect(refusal.code, `${method} ${path}: ${answer.text}`).toBe('FOLDER_OUT_OF_SCOPE');
        expect(refusal.message).toMatch(/admin|choose a folder/);
      }
      // Inside, they work as any member: a new folder, renamed, moved, deleted.
      const made = await call('limited', 'POST', '/field-option-batches', { items: [{ batchItemId: 'x', fieldId: foldersField, value: 'Inbox', parentId: folder.in }] });
      const inbox = made.body.successes.x.result.id;
      const other = freshFolder('in');
      expect((await call('limited', 'PATCH', `/field-options/${inbox}`, { value: 'Post', parentId: other })).status).toBe(200);
      expect((await call('limited', 'DELETE', `/field-options/${inbox}`)).status).toBe(200);
    });

    it("lists only the folders in a limited member's reach, with counts that leave the rest out", async () => {
      const all = await call('limited', 'POST', '/field-option-searches', { criterion: { type: 'FIELD_EQUALS', field: 'FIELD_ID', value: foldersField }, pageSize: 1000 });
      expect(all.status).toBe(200);
      expect(all.text).toContain(folder.in);
      expect(all.text).not.toContain(MARK_OUT);
      expect(all.body.totalResults).toBe(all.body.results.length);
      const admin = await service.api('POST', '/field-option-searches', { criterion: { type: 'FIELD_EQUALS', field: 'FIELD_ID', value: foldersField }, pageSize: 1000 });
      expect(admin.body.totalResults).toBeGreaterThan(all.body.totalResults);
    });

    it("refuses a guest link aimed out of a limited member's reach, and makes one inside", async () => {
      const out = await call('limited', 'POST', '/guest-uploads', { name: 'Drop', folderId: folder.out });
      expect(out.status, escalated(out)).toBe(404);
      const inside = await call('limited', 'POST', '/guest-uploads', { name: 'Drop', folderId: folder.in });
      expect(inside.status, inside.text).toBe(200);
    });

    it("shows a limited collaborator only the collection's assets in their reach, and visitors of their share the same", async () => {
      const assets = await call('limited', 'GET', `/collections/${mixed}/assets`);
      expect(assets.body.result.assetIds).toEqual([asset.in]);
      expect((await call('limited', 'GET', `/collections/${mixed}`)).body.result.numberOfAssets).toBe(1);
      expect((await service.api('GET', `/collections/${mixed}`)).body.result.numberOfAssets).toBe(2);
      // Their own collection, to which an admin adds an asset out of their reach, shared publicly.
      const own = (await call('limited', 'POST', '/collections', { name: 'Limited own', assetIds: [asset.in] })).body.result.id;
      await asAdmin('POST', `/collections/${own}/assets`, { assetIds: [asset.out] });
      const share = await call('limited', 'POST', '/collection-shares', { collectionId: own, access: 'VIEW_AND_DOWNLOAD' });
      expect(share.status, share.text).toBe(200);
      const visitor = await call('anonymous', 'GET', `/public/collection-shares/${share.body.result.id}`);
      expect(visitor.text).toContain(asset.in);
      expect(visitor.text).not.toContain(asset.out);
      expect(visitor.body.result.assets.totalResults).toBe(1);
      expect((await call('anonymous', 'GET', `/public/collection-shares/${share.body.result.id}/assets/${asset.out}/content`)).status).toBe(404);
    });

    it('keeps an asset filed out of reach there, whatever a limited member writes, shows them only the folder they see, and does not confirm a hidden folder by name', async () => {
      const both = await freshAsset('in');
      await asAdmin('PATCH', `/assets/${both}`, { metadata: { values: { [foldersField]: [folder.in, folder.out] } } });
      const elsewhere = freshFolder('in');
      const patched = await call('limited', 'PATCH', `/assets/${both}`, { metadata: { values: { [foldersField]: [elsewhere] } } });
      expect(patched.status, patched.text).toBe(200);
      const edit = (values: string[], type = 'BY_IDS') => ({ selector: { type: 'BY_IDS', assetIds: [both] }, metadataFieldValueUpdates: [{ fieldId: foldersField, type, values, operation: 'REPLACE' }] });
      const replaced = await call('limited', 'POST', '/asset-metadata-edit-batch-jobs', edit([folder.in]));
      expect(Object.keys((await finishedJob(service, '/asset-metadata-edit-batch-jobs', replaced.body.result.id, tokens.limited)).successes)).toEqual([both]);
      expect((await service.api('GET', `/assets/${both}`)).body.result.metadata.values[foldersField].sort()).toEqual([folder.in, folder.out].sort());
      // The limited member is shown only the folder they see, wherever the asset is rendered.
      expect((await call('limited', 'GET', `/assets/${both}`)).body.result.metadata.values[foldersField]).toEqual([folder.in]);
      const found = await call('limited', 'POST', '/asset-searches', {
        criterion: { type: 'AND', criteria: [{ type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: [both] }, { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'STAGED' }, value: true }] },
        sorts: [],
      });
      expect(found.body.totalResults, found.text).toBe(1);
      expect(found.text).not.toContain(folder.out);
      // A hidden folder's name answers as a name that is not there.
      const hiddenName = await call('limited', 'POST', '/asset-metadata-edit-batch-jobs', edit([`/${MARK_OUT}`], 'BY_VALUES'));
      const noName = await call('limited', 'POST', '/asset-metadata-edit-batch-jobs', edit(['/NoSuchFolder'], 'BY_VALUES'));
      expect([hiddenName.status, hiddenName.body.code]).toEqual([noName.status, noName.body.code]);
      expect(hiddenName.status).toBe(400);
    });

    it('lets the other account aim nothing at these folders', async () => {
      expect((await call('other', 'POST', '/guest-uploads', { name: 'Drop', folderId: folder.in })).status).toBe(404);
      expect((await call('other', 'POST', '/field-option-batches', { items: [{ batchItemId: 'x', fieldId: otherFolders, value: 'x', parentId: folder.in }] })).body.failures.x.status).toBe(400);
    });
  });
});

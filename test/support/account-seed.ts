/**
 * One of every kind of entity in an account, made through the API as its admin, for the cross-account
 * test: the ids of everything made, the concrete URL of every route that takes an id (keyed by the
 * route's pattern, as fastify's route table names it), and every name given (each carries `marker`, so a
 * response that shows any of them is caught by a plain text search).
 */
import type { TestService } from './test-service.js';
import { addUser } from './test-users.js';
import { randomFile, sendParts } from './upload-helpers.js';
import { sha256Hex } from './checksums.js';

export interface SeededAccount {
  accountId: string;
  /** Every id the seed made or read back (assets, files, options, jobs, shares, users, …). */
  ids: Set<string>;
  /** A concrete URL for each route pattern with parameters, filled with this account's ids. */
  paths: Record<string, string>;
  /** Named ids the test refers to directly. */
  named: Record<string, string>;
  /** GETs that read everything back, for comparing before and after. */
  readBack: string[];
}

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

/** A job once the runner has nothing left to run: read once, with no polling and no sleeps. */
export async function finishedJob(service: TestService, path: string, id: string, token?: string): Promise<any> {
  await service.running.jobsIdle();
  const answer = await service.api('GET', `${path}/${id}`, undefined, token);
  if (answer.status !== 200) throw new Error(`GET ${path}/${id} answered ${answer.status}: ${answer.text}`);
  return answer.body.result;
}

/** Fills an account (the service's local one, as its admin) with one of everything. */
export async function seedAccount(service: TestService, marker: string): Promise<SeededAccount> {
  const ids = new Set<string>();
  const named: Record<string, string> = {};
  const call: Call = async (method, path, body) => {
    const answer = await service.api(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  };
  const keep = (name: string, id: unknown): string => {
    if (typeof id !== 'string' || id === '') throw new Error(`no id for ${name}`);
    named[name] = id;
    ids.add(id);
    return id;
  };
  const accountId = keep('account', service.running.ctx.accounts.bySubdomain('local')?.id);
  keep('admin', service.running.ctx.accounts.userByEmail(service.running.ctx.config.adminEmail)?.id);
  keep('member', (await addUser(service, `member-${marker}@example.test`, 'member')).userId);

  // Schema: a field with options, and a folder.
  const fieldId = keep('field', (await call('POST', '/fields', { name: `${marker} Colour`, hasFixedOptions: true })).result.id);
  const options = await call('POST', '/field-option-batches', { items: [{ batchItemId: 'o', fieldId, value: `${marker} Red` }] });
  const optionId = keep('option', options.successes.o.result.id);
  const foldersId = (await call('GET', '/folder-settings')).result.fieldId;
  const folder = await call('POST', '/field-option-batches', { items: [{ batchItemId: 'f', fieldId: foldersId, value: `${marker} Folder` }] });
  const folderId = keep('folder', folder.successes.f.result.id);

  // Assets with files: two uploaded into the folder, one made empty (for a deletion job).
  const upload = async (name: string, folderName = `${marker} Folder`): Promise<{ assetId: string; fileId: string }> => {
    const bytes = randomFile(300);
    keep(`${name} sha256`, sha256Hex(bytes));
    const created = await call('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'u', path: `/${folderName}/${name}.bin`, size: bytes.length }] });
    keep(`${name} upload job`, created.result.id);
    const job = await finishedJob(service, '/asset-and-upload-batch-jobs', created.result.id);
    const { assetId, upload: open } = job.successes.u;
    const done = await call('POST', '/asset-upload-completions', { assetId, uploadId: open.uploadId, parts: await sendParts(open, bytes) });
    return { assetId: keep(name, assetId), fileId: keep(`${name} file`, done.result.currentAssetFile.id) };
  };
  const shared = await upload(`${marker}-shared`);
  const unshared = await upload(`${marker}-unshared`);
  // Live, but outside the portal's folder.
  const outside = await upload(`${marker}-outside`, `${marker} Elsewhere`);
  named.outside = outside.assetId;
  named.asset = shared.assetId;
  named.file = shared.fileId;
  named.otherAsset = unshared.assetId;
  await call('PATCH', `/assets/${shared.assetId}`, { metadata: { values: { [fieldId]: [optionId] } } });
  const doomed = keep('doomed', (await call('POST', '/assets-creations', { count: 1 })).results[0].result.id);
  // A new version of the shared asset, left open: its upload id and part URL stay unused.
  const versionJob = await call('POST', '/asset-upload-batch-jobs', { items: [{ batchItemId: 'v', assetId: shared.assetId, assetFileId: null, size: 10 }] });
  keep('version job', versionJob.result.id);
  const version = (await finishedJob(service, '/asset-upload-batch-jobs', versionJob.result.id)).successes.v;
  keep('open upload', version.upload.uploadId);

  // Downloads (a job and its event), renditions by crop area, suggestions, batch edits.
  const area = keep('crop area', (await call('POST', `/assets/${shared.assetId}/saved-crop-areas`, { name: `${marker} Face`, x: 0, y: 0, width: 1, height: 1 })).result.id);
  const download = await call('POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'd', assetId: shared.assetId, assetFileId: null }] });
  keep('download job', download.result.id);
  const downloaded = await finishedJob(service, '/asset-download-batch-jobs', download.result.id);
  if (downloaded.successes.d === undefined) throw new Error(`download failed: ${JSON.stringify(downloaded)}`);
  const edit = await call('POST', '/asset-metadata-edit-batch-jobs', {
    selector: { type: 'BY_IDS', assetIds: [unshared.assetId] },
    metadataFieldValueUpdates: [{ fieldId, type: 'BY_IDS', values: [optionId], operation: 'ADD' }],
  });
  keep('edit job', edit.result.id);
  keep('lifecycle job', (await call('POST', '/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [unshared.assetId] }, targetState: 'LIVE' })).result.id);
  await call('POST', '/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [outside.assetId] }, targetState: 'LIVE' });
  keep('deletion job', (await call('POST', '/asset-deletion-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [doomed] } })).result.id);
  keep('suggestion job', (await call('POST', '/asset-metadata-suggestion-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [shared.assetId] } })).result.id);
  await service.running.jobsIdle();

  // Collaboration: a collection with a collaborator, both kinds of share, a portal, a guest upload link.
  const collectionId = keep('collection', (await call('POST', '/collections', { name: `${marker} Collection`, assetIds: [shared.assetId] })).result.id);
  await call('PUT', `/collections/${collectionId}/collaborators/${named.member}`, { role: 'VIEWER' });
  const assetShare = (await call('POST', '/asset-shares', { assetIds: [shared.assetId], access: 'VIEW_AND_DOWNLOAD', slug: `${marker}-asset-share` })).result;
  keep('asset share', assetShare.id);
  const collectionShare = (await call('POST', '/collection-shares', { collectionId, access: 'VIEW_AND_DOWNLOAD', slug: `${marker}-collection-share` })).result;
  keep('collection share', collectionShare.id);
  const portalId = keep('portal', (await call('POST', '/portals', { name: `${marker} Portal`, folderIds: [folderId] })).result.id);
  const link = (await call('POST', '/guest-uploads', { name: `${marker} Drop box`, folderId })).result;
  keep('guest upload', link.id);
  keep('guest upload key', link.key);

  // People and conversation: a group, a comment, a saved search.
  const groupId = keep('group', (await call('POST', '/groups', { name: `${marker} Group`, memberIds: [named.member], folderIds: [folderId] })).result.id);
  const commentId = keep('comment', (await call('POST', `/assets/${shared.assetId}/comments`, { text: `${marker} looks good` })).result.id);
  const savedId = keep('saved search', (await call('POST', '/saved-searches', { name: `${marker} Reds`, criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId }, value: optionId } })).result.id);
  const scroll = await call('POST', '/asset-scroll-searches', { pageSize: 1, criterion: { type: 'MATCH_ALL' }, sorts: [] });
  keep('scroll', scroll.scrollId);

  // Issue 21's entities: filters and views, external apps, subscription, terms, reference images, quotas.
  await call('POST', '/search-filter-view/search-filters', { searchFilterId: fieldId });
  const viewId = keep('field view', (await call('POST', '/field-views', { name: `${marker} View`, fieldIds: [fieldId] })).result.id);
  await call('POST', '/external-app-users', { externalAppUserId: `${marker}-user` });
  await call('POST', '/external-app-accounts', { externalAppAccountId: `${marker}-account` });
  const intentId = keep('intent', (await call('POST', '/subscription-intents', { plan: 'TIERED', tier: 'STARTER' })).result.id);
  await call('PATCH', `/subscription-intents/${intentId}`, { status: 'CONFIRMED' });
  // Terms are public by the spec (§4.3 GET unauthenticated): their text is not marked secret.
  await call('PUT', `/account-terms-and-conditions/${accountId}`, { text: 'Be kind to each other.', acceptanceRequired: false });
  const reference = await call('POST', '/reference-image-uploads');
  keep('reference image', reference.result.key);
  await call('PUT', `/admin/accounts/${accountId}/entities/field/quota-override`, { quota: 500 });
  await call('PUT', '/storefront-sku-settings', { skus: [{ sku: `${marker}-sku`, name: `${marker} Print`, priceCents: 500, currency: 'EUR' }] });
  await call('PUT', '/account-security', { allowedEmailDomains: [`${marker}.test`, 'example.test', 'localhost'], sessionLifetimeHours: 12 });
  await call('PATCH', '/auto-tagging-image-settings', { targetFieldId: fieldId });
  await call('PUT', '/custom-integration-settings', { redirectUris: [`http://127.0.0.1/${marker}`] });

  const paths: Record<string, string> = {
    '/fields/:id': `/fields/${fieldId}`,
    '/field-options/:id': `/field-options/${optionId}`,
    '/assets/:id': `/assets/${shared.assetId}`,
    '/assets/:id/files': `/assets/${shared.assetId}/files`,
    '/asset-files/:id': `/asset-files/${shared.fileId}`,
    '/asset-and-upload-batch-jobs/:id': `/asset-and-upload-batch-jobs/${named[`${marker}-shared upload job`] ?? ''}`,
    '/asset-upload-batch-jobs/:id': `/asset-upload-batch-jobs/${versionJob.result.id}`,
    '/asset-download-batch-jobs/:id': `/asset-download-batch-jobs/${download.result.id}`,
    '/files/:fileId/content': `/files/${shared.fileId}/content`,
    // Renditions and previews are named by the blob's SHA-256 (a rendition by its transformation's, any 64 hex digits will do).
    '/files/:fileId/renditions/:key': `/files/${shared.fileId}/renditions/${named[`${marker}-shared sha256`] ?? ''}`,
    '/previews/:name': `/previews/${named[`${marker}-shared sha256`] ?? ''}.webp`,
    '/download-zips/:zipId': `/download-zips/${download.result.id}`,
    '/assets/:id/saved-crop-areas': `/assets/${shared.assetId}/saved-crop-areas`,
    '/asset-saved-crop-areas/:id': `/asset-saved-crop-areas/${area}`,
    '/collections/:id': `/collections/${collectionId}`,
    '/collections/:id/assets': `/collections/${collectionId}/assets`,
    '/collections/:id/asset-removals': `/collections/${collectionId}/asset-removals`,
    '/collections/:id/collaborators/:userId': `/collections/${collectionId}/collaborators/${named.member}`,
    '/asset-shares/:id': `/asset-shares/${assetShare.id}`,
    '/collection-shares/:id': `/collection-shares/${collectionShare.id}`,
    '/public/asset-shares/:key': `/public/asset-shares/${assetShare.id}`,
    '/public/asset-shares/:key/assets/:assetId/content': `/public/asset-shares/${assetShare.id}/assets/${shared.assetId}/content`,
    '/public/collection-shares/:key': `/public/collection-shares/${collectionShare.id}`,
    '/public/collection-shares/:key/assets/:assetId/content': `/public/collection-shares/${collectionShare.id}/assets/${shared.assetId}/content`,
    '/portals/:id': `/portals/${portalId}`,
    '/public/portals/:id': `/public/portals/${portalId}`,
    '/public/portals/:id/assets': `/public/portals/${portalId}/assets`,
    '/public/portals/:id/assets/:assetId/content': `/public/portals/${portalId}/assets/${shared.assetId}/content`,
    '/guest-uploads/:id': `/guest-uploads/${link.id}`,
    '/public/guest-uploads/:key': `/public/guest-uploads/${link.key}`,
    '/public/guest-uploads/:key/uploads': `/public/guest-uploads/${link.key}/uploads`,
    '/public/guest-uploads/:key/completions': `/public/guest-uploads/${link.key}/completions`,
    '/groups/:id': `/groups/${groupId}`,
    '/users/:id': `/users/${named.member}`,
    '/assets/:id/comments': `/assets/${shared.assetId}/comments`,
    '/comments/:id': `/comments/${commentId}`,
    '/saved-searches/:id': `/saved-searches/${savedId}`,
    '/saved-searches/:id/results': `/saved-searches/${savedId}/results`,
    '/asset-metadata-edit-batch-jobs/:id': `/asset-metadata-edit-batch-jobs/${edit.result.id}`,
    '/asset-lifecycle-transition-batch-jobs/:id': `/asset-lifecycle-transition-batch-jobs/${named['lifecycle job'] ?? ''}`,
    '/asset-deletion-batch-jobs/:id': `/asset-deletion-batch-jobs/${named['deletion job'] ?? ''}`,
    // The V1 staging workflow refuses every new job (so none exists): another job of the account stands in.
    '/asset-staging-workflow-transition-batch-jobs/:id': `/asset-staging-workflow-transition-batch-jobs/${edit.result.id}`,
    '/search-filter-view/search-filters/:id': `/search-filter-view/search-filters/${fieldId}`,
    '/field-views/:id': `/field-views/${viewId}`,
    '/asset-metadata-suggestion-batch-jobs/:id': `/asset-metadata-suggestion-batch-jobs/${named['suggestion job'] ?? ''}`,
    '/subscription-intents/:id': `/subscription-intents/${intentId}`,
    '/account-terms-and-conditions/:id': `/account-terms-and-conditions/${accountId}`,
    '/account-terms-and-conditions/:id/acceptances': `/account-terms-and-conditions/${accountId}/acceptances`,
    '/staff-members/:id': `/staff-members/${named.admin}`,
    '/admin/accounts/:accountId/entities/:id/quota-override': `/admin/accounts/${accountId}/entities/field/quota-override`,
    '/upload-parts/:uploadId/:partNumber': `/upload-parts/${version.upload.uploadId}/1`,
    '/reference-images/:key': `/reference-images/${reference.result.key}`,
  };
  const readBack = [
    ...Object.entries(paths)
      .filter(([route]) => !/^\/(public|files|previews|download-zips|upload-parts|reference-images|staff-members)\//.test(route) && !route.endsWith('/asset-removals') && !route.includes('collaborators') && !route.endsWith('/acceptances'))
      .filter(([route]) => !['/asset-files/:id', '/comments/:id', '/saved-searches/:id/results', '/asset-staging-workflow-transition-batch-jobs/:id', '/search-filter-view/search-filters/:id'].includes(route))
      .map(([, path]) => path),
    '/fields', '/folder-settings', '/portals', '/guest-uploads', '/groups', '/saved-searches', '/search-filter-view', '/field-views', '/external-app-accounts',
    '/subscription', '/storefront-sku-settings', '/account-security', '/auto-tagging-image-settings', '/text-in-image-settings', '/custom-integration-settings',
    `/assets/${unshared.assetId}`, '/staff-members',
  ];
  return { accountId, ids, paths, named, readBack };
}

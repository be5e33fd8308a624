/**
 * The one wiring point of the asset service: opens the data directory, builds every component with
 * constructor injection and registers the route groups. `asset-sync serve`, the tests and the
 * desktop app's embedded service all start it through here.
 */
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { systemClock, systemTimers, type Clock, type Timers } from './clock.js';
import { cryptoIds, type IdSource } from './db/time-ordered-id.js';
import { openDatabase, type Db } from './db/open-database.js';
import { settingsRepo } from './settings/settings-repo.js';
import { accountsRepo } from './accounts/accounts-repo.js';
import { fieldsRepo } from './fields/fields-repo.js';
import { fieldOptionsRepo } from './fields/field-options-repo.js';
import { loadAccessTokens } from './auth/access-tokens.js';
import { sessionMembers } from './auth/session-members.js';
import { createUrlSigner } from './http/signed-urls.js';
import { handleFrameworkError, installErrorHandling } from './http/error-handler.js';
import { installBodyParsers } from './http/body-parsers.js';
import { installRequestAuth } from './http/request-auth.js';
import { collectRoutes, type RouteEntry } from './http/route-bodies.js';
import { bootstrap, type BootstrapReport } from './bootstrap.js';
import { registerCurrentUserRoutes } from './accounts/current-user-routes.js';
import { registerFieldRoutes } from './fields/fields-routes.js';
import { registerOAuthRoutes } from './auth/oauth-routes.js';
import { registerIntegrationSettingsRoutes } from './auth/integration-settings-routes.js';
import { registerFieldOptionRoutes } from './fields/field-option-routes.js';
import { assetsRepo } from './assets/assets-repo.js';
import { assetRenderer } from './assets/render-asset.js';
import { registerAssetRoutes } from './assets/asset-routes.js';
import { registerSearchRoutes } from './search/search-routes.js';
import { assetIdSelector } from './search/select-asset-ids.js';
import { createBlobStore, type BlobStore } from './blobs/blob-store.js';
import { registerHealthRoutes } from './health/health-routes.js';
import { StoreHealthCheck } from './health/store-health.js';
import { directoryProbe, sqliteProbe } from './health/store-probes.js';
import { inlineBlobs } from './blobs/inline-blobs.js';
import { uploadsRepo } from './uploads/uploads-repo.js';
import { UploadService } from './uploads/upload-service.js';
import { registerUploadRoutes } from './uploads/upload-routes.js';
import { assetAndUploadJob, assetUploadJob, authorizeNewAssets, authorizeNewVersions, uploadBatchBody } from './uploads/upload-jobs.js';
import { jobsRepo } from './jobs/jobs-repo.js';
import { JobRunner } from './jobs/job-runner.js';
import { registerJobKind } from './jobs/job-routes.js';
import { registerBatchJobs } from './batch/batch-jobs.js';
import { authorizeDownload, downloadBatchBody, downloadJob, prepareDownload } from './downloads/download-job.js';
import { registerFileContentRoutes } from './downloads/file-content-routes.js';
import { DownloadZips } from './downloads/zip-download.js';
import { RENDER_CONCURRENCY, TransformCache, type OwnedRenderTransformation } from './transforms/transform-cache.js';
import type { RenderTransformation } from './transforms/render-transformation.js';
import { DEFAULT_RENDER_LIMITS, RenderCage, type Renderer } from './render-cage/render-cage.js';
import { presetsRepo } from './transforms/presets-repo.js';
import { cropAreasRepo, registerCropAreaRoutes } from './transforms/crop-area-routes.js';
import { registerPresetRoutes } from './transforms/preset-routes.js';
import { PreviewMaker } from './previews/preview-maker.js';
import { registerPreviewRoute } from './previews/preview-route.js';
import { lockDataDir } from './cli/data-dir-lock.js';
import { DATABASE_FILE, secureDataDir } from './data-dir/secure-data-dir.js';
import { createPrivateFile } from './data-dir/private-files.js';
import { openSigningKeys } from './auth/signing-keys.js';
import { ChangeFeed } from './changes/change-feed.js';
import { registerChangeRoutes } from './changes/change-routes.js';
import { collectionsRepo } from './collections/collections-repo.js';
import { registerCollectionRoutes } from './collections/collection-routes.js';
import { sharesRepo } from './shares/shares-repo.js';
import { registerShareRoutes } from './shares/share-routes.js';
import { registerPublicShareRoutes } from './shares/public-share-routes.js';
import { publicAssetView } from './public-access/public-assets.js';
import { portalsRepo } from './portals/portals-repo.js';
import { registerPortalRoutes } from './portals/portal-routes.js';
import { registerPublicPortalRoutes } from './portals/public-portal-routes.js';
import { attemptLimiter, PASSCODE_LIMITS } from './auth/attempt-limiter.js';
import { verifiedPasscodes } from './portals/verified-passcodes.js';
import { passcodeMatches } from './portals/passcodes.js';
import { hashingPool } from './accounts/hashing-pool.js';
import { guestUploadsRepo } from './guest-uploads/guest-uploads-repo.js';
import { registerGuestUploadRoutes } from './guest-uploads/guest-upload-routes.js';
import { folderPolicy } from './groups/folder-policy.js';
import { registerGroupRoutes } from './groups/group-routes.js';
import { registerUserRoutes } from './accounts/user-routes.js';
import { registerCommentRoutes } from './comments/comment-routes.js';
import { savedSearchesRepo } from './saved-searches/saved-searches-repo.js';
import { registerSavedSearchRoutes } from './saved-searches/saved-search-routes.js';
import { SavedSearchMailer } from './saved-searches/saved-search-mailer.js';
import { smtpMailer } from './saved-searches/smtp-mailer.js';
import { downloadEventsRepo } from './download-events/download-events-repo.js';
import { registerDownloadEventRoutes } from './download-events/download-event-routes.js';
import { registerSearchFilterRoutes } from './search-filters/search-filter-routes.js';
import { registerFieldViewRoutes } from './field-views/field-view-routes.js';
import { registerReferenceImageRoutes } from './reference-images/reference-image-routes.js';
import { registerSuggestionRoutes } from './suggestions/suggestion-routes.js';
import { registerExternalAppRoutes } from './administration/external-app-routes.js';
import { registerSubscriptionRoutes } from './administration/subscription-routes.js';
import { registerAccountSignupRoutes } from './administration/account-signup-routes.js';
import { registerAccountAdminRoutes } from './administration/account-admin-routes.js';
import { registerTermsAcceptance } from './administration/terms-acceptance.js';
import { registerStaffSignInRoutes } from './staff/staff-sign-in-routes.js';
import { FileNameIndexing, fileNameIndex } from './search/file-name-index.js';

export interface RunningService {
  /** The base URL clients use (the public URL when one was configured). */
  readonly url: string;
  readonly ctx: ServiceContext;
  readonly bootstrap: BootstrapReport;
  readonly app: FastifyInstance;
  /** Where the blobs are (tests ask it for a blob's path rather than restate the layout). */
  readonly blobs: BlobStore;
  /** Every route with the body schema it declares (tests walk them). */
  readonly routes: readonly RouteEntry[];
  /** Which stores this instance uses, and where (`asset-sync serve` prints them). */
  readonly stores: StoresInUse;
  /** Resolves when no job is queued or running (tests). */
  jobsIdle(): Promise<void>;
  /** Resolves when no preview is waiting to be made (tests, benchmarks). */
  previewsIdle(): Promise<void>;
  /** Checks saved searches for new matches and sends their e-mails now (tests; no-op without SMTP). */
  checkSavedSearches(): Promise<void>;
  close(): Promise<void>;
}

export interface StoresInUse {
  database: { kind: 'sqlite'; file: string };
  blobs: { kind: 'directory'; dir: string };
}

export interface ServiceDeps {
  clock?: Clock;
  /** What long-lived answers (change-feed streams) do later; the simulation's run on its virtual clock. */
  timers?: Timers;
  /** Renders download transformations in this process instead of the render cage; tests wrap sharp's (render-transformation.ts) to hold one open. */
  renderTransformation?: RenderTransformation;
  /** Where row ids come from (default: the clock and crypto randomness); the simulation's are seeded. */
  ids?: IdSource;
  /** Told every SQL statement run, as SQLite expands it (tests count the statements each file costs). */
  onStatement?: (sql: string) => void;
  /** Renders users' files (default: the render cage's processes); the simulation's runs in its process, replayably. */
  renderer?: Renderer;
}

export async function startService(config: ServiceConfig, deps: ServiceDeps = {}): Promise<RunningService> {
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? cryptoIds(() => clock.now());
  // Before anything is written there: a directory other users can read is refused (or made private).
  secureDataDir(config.dataDir);
  // Before anything reads or writes the directory: a second service on it is refused here.
  const lock = lockDataDir(config.dataDir);
  let db: Db;
  const databaseFile = join(config.dataDir, DATABASE_FILE);
  try {
    // 0600 before SQLite opens it: its -wal and -shm files take the database file's mode.
    createPrivateFile(databaseFile);
    db = openDatabase(databaseFile, deps.onStatement === undefined ? {} : { onStatement: deps.onStatement });
  } catch (error) {
    lock.release();
    throw error;
  }
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors: handleFrameworkError,
    // Long part uploads must not be cut off; idle sockets still time out.
    requestTimeout: 0,
    connectionTimeout: 0,
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
    return503OnClosing: true,
    // request.ip: the client's address, from X-Forwarded-For only when a trusted proxy sent it.
    ...(config.trustedProxies.length === 0 ? {} : { trustProxy: [...config.trustedProxies] }),
  });
  let baseUrl = config.publicUrl?.replace(/\/+$/, '') ?? `http://${config.host}:${config.port}`;

  try {
    const settings = settingsRepo(db);
    const sessions = sessionMembers(db);
    const keys = await openSigningKeys(config.dataDir, db, () => new Date(clock.now()));
    const tokens = await loadAccessTokens(settings, keys, config.audience, clock, sessions.generationOf);
    const fieldOptions = fieldOptionsRepo(db, ids);
    const ctx: ServiceContext = {
      config,
      db,
      clock,
      ids,
      log: app.log,
      settings,
      tokens,
      keys,
      signer: createUrlSigner(keys.urlSigning, clock, () => baseUrl),
      accounts: accountsRepo(db),
      fields: fieldsRepo(db),
      fieldOptions,
      folderPolicy: folderPolicy(db, fieldOptions, sessions),
      sessions,
      hashing: hashingPool(),
      baseUrl: () => baseUrl,
      nowIso: () => new Date(clock.now()).toISOString(),
    };
    const report = await bootstrap(ctx);

    const routes = collectRoutes(app);
    installErrorHandling(app);
    installBodyParsers(app);
    installRequestAuth(app, tokens, sessions, ctx.folderPolicy);
    const blobsDir = join(config.dataDir, 'blobs');
    registerHealthRoutes(app, new StoreHealthCheck({ database: sqliteProbe(db), blobs: directoryProbe(blobsDir) }));
    registerCurrentUserRoutes(app, ctx);
    registerFieldRoutes(app, ctx);
    registerOAuthRoutes(app, ctx);
    registerIntegrationSettingsRoutes(app, ctx);
    registerFieldOptionRoutes(app, ctx);

    const assets = assetsRepo(db, ids);
    // Every preview and rendition of a user's file is rendered in the cage's processes, never here.
    const cage = deps.renderer ?? new RenderCage({ ...DEFAULT_RENDER_LIMITS, ...config.render }, (message, error) => app.log.warn({ err: error }, message));
    const caged: OwnedRenderTransformation = (source, operations, inputSubtype, target, owner, label) => cage.run(owner, label, { kind: 'transform', source, operations, inputSubtype, target });
    const injected = deps.renderTransformation;
    const transforms =
      injected === undefined
        ? new TransformCache(db, join(config.dataDir, 'transforms'), () => ctx.nowIso(), null, caged)
        : new TransformCache(db, join(config.dataDir, 'transforms'), () => ctx.nowIso(), RENDER_CONCURRENCY, (source, operations, subtype, target) => injected(source, operations, subtype, target));
    // Previews and renditions are derived from a blob: they go with it.
    const derivedOf = (sha256: string): string[] => [...previews.forget(sha256), ...transforms.forget(sha256)];
    const blobs = createBlobStore(blobsDir, derivedOf, undefined, inlineBlobs(db));
    const previews = new PreviewMaker(
      join(config.dataDir, 'previews'),
      blobs,
      app.log,
      db,
      async (file, { kind, source, mediaType, target, size }) => {
        await cage.run(file.account_id, file.sha256, { kind: 'preview', previewKind: kind, source, mediaType, target, size });
      },
      () => ctx.nowIso(),
    );
    const render = assetRenderer(ctx, assets, { of: (sha256) => previews.failureOf(sha256), ofMany: (sha256s) => previews.failuresOf(sha256s) });
    const cropAreas = cropAreasRepo(ctx);
    const presets = presetsRepo(db);
    const zips = new DownloadZips(ctx, blobs, transforms);
    const uploads = new UploadService({
      ctx,
      assets,
      uploads: uploadsRepo(db),
      blobs,
      uploadsDir: join(config.dataDir, 'uploads'),
      renderAsset: (who, assetId) => render.byId(who, assetId),
      renderRow: (who, row, currentFile, values) => render.asset(who, row, currentFile, values),
      onFileStored: (file) => previews.enqueue(file),
    });
    const jobs = jobsRepo(db, ids);
    const runner = new JobRunner(ctx, jobs);
    runner.register(assetAndUploadJob(uploads));
    runner.register(assetUploadJob(uploads));
    const downloadEvents = downloadEventsRepo(db);
    runner.register(downloadJob(ctx, { assets, blobs, transforms, cropAreas, zips, events: downloadEvents }));
    registerAssetRoutes(app, ctx, { assets, render, uploads, blobs });
    registerSearchRoutes(app, ctx, { render });
    registerUploadRoutes(app, ctx, uploads);
    registerJobKind(app, ctx, runner, jobs, { path: '/asset-and-upload-batch-jobs', type: 'AssetAndUploadBatchJob', body: uploadBatchBody, authorize: authorizeNewAssets });
    registerJobKind(app, ctx, runner, jobs, { path: '/asset-upload-batch-jobs', type: 'AssetUploadBatchJob', body: uploadBatchBody, authorize: authorizeNewVersions });
    registerJobKind(app, ctx, runner, jobs, { path: '/asset-download-batch-jobs', type: 'AssetDownloadBatchJob', body: downloadBatchBody, authorize: authorizeDownload, prepare: prepareDownload(presets) });
    registerFileContentRoutes(app, ctx, { blobs, transforms });
    registerPreviewRoute(app, ctx, { blobs, previews });
    zips.register(app);
    registerPresetRoutes(app, { assets, presets, cropAreas });
    registerCropAreaRoutes(app, ctx, assets, cropAreas);
    const changes = new ChangeFeed(db, ctx.settings);
    registerChangeRoutes(app, ctx, changes, { timers: deps.timers ?? systemTimers });
    // Collaboration: collections, shares, portals, guest uploads.
    const collections = collectionsRepo(db);
    registerCollectionRoutes(app, ctx, { collections, assets });
    const shares = sharesRepo(db);
    const publicView = publicAssetView(ctx, { assets, render, events: downloadEvents });
    registerShareRoutes(app, ctx, { shares, assets, collections });
    registerPublicShareRoutes(app, ctx, { shares, collections, view: publicView });
    const portals = portalsRepo(db);
    registerPortalRoutes(app, ctx, portals);
    registerPublicPortalRoutes(app, ctx, { portals, view: publicView, limiter: attemptLimiter(clock, PASSCODE_LIMITS), passcodes: verifiedPasscodes(clock, { hasher: (attempt, stored) => ctx.hashing.run(() => passcodeMatches(attempt, stored)) }) });
    registerGuestUploadRoutes(app, ctx, { guestUploads: guestUploadsRepo(db), uploads });
    registerGroupRoutes(app, ctx);
    registerUserRoutes(app, ctx);
    registerCommentRoutes(app, ctx, assets);
    const savedSearches = savedSearchesRepo(db);
    registerSavedSearchRoutes(app, ctx, { savedSearches, render });
    const mailer = config.smtp === undefined ? undefined : smtpMailer(config.smtp);
    const unscoped = (row: { account_id: string }) => ({ accountId: row.account_id, folders: null });
    const savedSearchMailer =
      mailer === undefined
        ? undefined
        : new SavedSearchMailer(ctx, savedSearches, mailer, (row) => (row.current_file_id === null ? row.id : (assets.file(unscoped(row), row.current_file_id)?.filename ?? row.id)));
    registerBatchJobs(app, ctx, runner, jobs, {
      assets,
      blobs,
      uploads,
      selectByCriterion: assetIdSelector(ctx),
    });
    // Accounts and administration, download events, suggestions and the rest of the spec.
    registerDownloadEventRoutes(app, ctx);
    registerSearchFilterRoutes(app, ctx);
    registerFieldViewRoutes(app, ctx);
    registerReferenceImageRoutes(app, ctx);
    registerSuggestionRoutes(app, ctx, { runner, jobs, assets, blobs, selectByCriterion: assetIdSelector(ctx), imageFacts: (owner, label, source) => cage.run(owner, label, { kind: 'facts', source }) });
    registerExternalAppRoutes(app, ctx);
    registerSubscriptionRoutes(app, ctx);
    registerAccountSignupRoutes(app, ctx, { mailer });
    registerAccountAdminRoutes(app, ctx);
    registerTermsAcceptance(app, ctx);
    registerStaffSignInRoutes(app, ctx);

    // Jobs interrupted by a stop resume now; abandoned uploads are swept now and then.
    runner.kick();
    uploads.endings.sweepAbandoned();
    const sweeper = setInterval(() => uploads.endings.sweepAbandoned(), Math.min(3600, config.uploadAbandonAfter) * 1000);
    sweeper.unref();
    // New files' names join the search index in batches (the files in between are searched directly).
    const nameIndexing = new FileNameIndexing(fileNameIndex(ctx.db), (error) => app.log.error({ err: error }, 'indexing file names failed'));
    nameIndexing.start();
    const mailTimer = savedSearchMailer === undefined ? undefined : setInterval(() => void savedSearchMailer.check(), config.savedSearchEmailInterval * 1000);
    mailTimer?.unref();
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      nameIndexing.close();
      clearInterval(mailTimer);
      await savedSearchMailer?.idle();
      mailer?.close();
      changes.close();
      await runner.close();
      // The cage first: it ends renders under way, which the previews' queue would otherwise wait for.
      const previewsClosed = previews.close();
      await cage.close();
      await previewsClosed;
      await uploads.close();
    });

    const address = await app.listen({ host: config.host, port: config.port });
    if (config.publicUrl === undefined) baseUrl = address.replace('localhost', config.host);
    return {
      url: baseUrl,
      ctx,
      bootstrap: report,
      app,
      blobs,
      routes,
      stores: { database: { kind: 'sqlite', file: databaseFile }, blobs: { kind: 'directory', dir: blobsDir } },
      jobsIdle: () => runner.idle(),
      previewsIdle: () => previews.idle(),
      checkSavedSearches: async () => savedSearchMailer?.check(),
      async close() {
        await app.close();
        db.close();
        lock.release();
      },
    };
  } catch (error) {
    await app.close();
    db.close();
    lock.release();
    throw error;
  }
}

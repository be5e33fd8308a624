/**
 * The one wiring point of the asset service: opens the data directory, builds every component with
 * constructor injection and registers the route groups. `asset-sync serve`, the tests and the
 * desktop app's embedded service all start it through here.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';
import { systemClock, type Clock } from './clock.js';
import { openDatabase } from './db/open-database.js';
import { settingsRepo } from './settings/settings-repo.js';
import { accountsRepo } from './accounts/accounts-repo.js';
import { fieldsRepo } from './fields/fields-repo.js';
import { loadAccessTokens } from './auth/access-tokens.js';
import { createUrlSigner } from './http/signed-urls.js';
import { installErrorHandling } from './http/error-handler.js';
import { installBodyParsers } from './http/body-parsers.js';
import { installRequestAuth } from './http/request-auth.js';
import { bootstrap, type BootstrapReport } from './bootstrap.js';
import { registerCurrentUserRoutes } from './accounts/current-user-routes.js';
import { registerFieldRoutes } from './fields/fields-routes.js';

export interface RunningService {
  /** The base URL clients use (the public URL when one was configured). */
  readonly url: string;
  readonly ctx: ServiceContext;
  readonly bootstrap: BootstrapReport;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

export interface ServiceDeps {
  clock?: Clock;
}

export async function startService(config: ServiceConfig, deps: ServiceDeps = {}): Promise<RunningService> {
  const clock = deps.clock ?? systemClock;
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(join(config.dataDir, 'service.db'));
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: 1000 },
    // Long part uploads must not be cut off; idle sockets still time out.
    requestTimeout: 0,
    connectionTimeout: 0,
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
    return503OnClosing: true,
  });
  let baseUrl = config.publicUrl?.replace(/\/+$/, '') ?? `http://${config.host}:${config.port}`;

  try {
    const settings = settingsRepo(db);
    const tokens = await loadAccessTokens(settings, config.audience, clock);
    const urlSecret = settings.getOrCreate('url_signing_secret', () => randomBytes(32).toString('base64url'));
    const ctx: ServiceContext = {
      config,
      db,
      clock,
      log: app.log,
      settings,
      tokens,
      signer: createUrlSigner(urlSecret, clock, () => baseUrl),
      accounts: accountsRepo(db),
      fields: fieldsRepo(db),
      baseUrl: () => baseUrl,
      nowIso: () => new Date(clock.now()).toISOString(),
    };
    const report = await bootstrap(ctx);

    installErrorHandling(app);
    installBodyParsers(app);
    installRequestAuth(app, tokens, ctx.accounts);
    app.get('/health', { config: { public: true } }, async () => ({ status: 'ok' }));
    registerCurrentUserRoutes(app, ctx);
    registerFieldRoutes(app, ctx);

    const address = await app.listen({ host: config.host, port: config.port });
    if (config.publicUrl === undefined) baseUrl = address.replace('localhost', config.host);
    return {
      url: baseUrl,
      ctx,
      bootstrap: report,
      app,
      async close() {
        await app.close();
        db.close();
      },
    };
  } catch (error) {
    await app.close();
    db.close();
    throw error;
  }
}

/**
 * Starts the real asset service on 127.0.0.1 (a free port) on a fresh temp data dir, with helpers to
 * mint tokens and call the API. Every test that starts one stops it (`await service.stop()`).
 */
import { rmSync } from 'node:fs';
import { Agent, fetch as agentFetch } from 'undici';
import { startService, type RunningService, type ServiceDeps } from '../../src/service/create-service.js';
import { serviceConfig, type ServiceConfig } from '../../src/service/config.js';
import { LOCAL_SUBDOMAIN } from '../../src/service/bootstrap.js';
import { tempDir } from './temp-dir.js';

export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestService {
  url: string;
  dataDir: string;
  running: RunningService;
  /** A bearer token for the user (default: the admin). */
  token(email?: string, ttlSeconds?: number): Promise<string>;
  /**
   * fetch with the admin's token and JSON body handling; returns status, headers and parsed body. The
   * default admin token is minted again when a security change revoked it (TOKEN_REVOKED), as a client
   * refreshes; a token passed in is used as it is.
   */
  api(method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer>;
  /** Stops the service, keeping the data dir (for restart tests). */
  stop(): Promise<void>;
  /** Starts a new service on the same data dir. */
  restart(overrides?: Partial<ServiceConfig>): Promise<TestService>;
  /** Stops it and removes the data dir. */
  dispose(): Promise<void>;
}

export interface ApiAnswer {
  status: number;
  headers: { get(name: string): string | null; getSetCookie(): string[] };
  /** Parsed JSON. Tests read arbitrary answers and assert their shape, so this is deliberately loose. */
  body: any;
  text: string;
}

async function call(agent: Agent, url: string, method: string, path: string, body: unknown, token: string): Promise<ApiAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await agentFetch(`${url}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body), dispatcher: agent });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = { unparsed: text };
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export async function startTestService(overrides: Partial<ServiceConfig> = {}, deps: ServiceDeps = {}, dataDir = tempDir('asset-sync-service-')): Promise<TestService> {
  const running = await startService(serviceConfig({ dataDir, port: 0, adminPassword: ADMIN_PASSWORD, ...overrides }), deps);
  let adminToken: string | undefined;
  // The helper's connections live and die with this service. With one shared pool, a test that stops
  // the service and starts another on the same port could send its next call down a kept-alive socket
  // the old server had already closed ("other side closed"), before the pool saw the close.
  const agent = new Agent();
  const stop = async (): Promise<void> => {
    await running.close();
    await agent.destroy();
  };
  const service: TestService = {
    url: running.url,
    dataDir,
    running,
    async token(email, ttlSeconds = 3600) {
      const { accounts, tokens } = running.ctx;
      const user = accounts.userByEmail(email ?? running.ctx.config.adminEmail);
      if (user === undefined) throw new Error(`no user ${email ?? 'admin'}`);
      return tokens.issue({ sub: user.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, ttlSeconds);
    },
    async api(method, path, body, token) {
      adminToken ??= await service.token();
      const answer = await call(agent, running.url, method, path, body, token ?? adminToken);
      if (token !== undefined || answer.status !== 401 || !answer.text.includes('TOKEN_REVOKED')) return answer;
      adminToken = await service.token();
      return call(agent, running.url, method, path, body, adminToken);
    },
    stop,
    restart: (more = {}) => startTestService({ ...overrides, ...more }, deps, dataDir),
    async dispose() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}

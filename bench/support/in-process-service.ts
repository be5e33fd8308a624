/**
 * The asset service started in this process on a temp data dir, for benchmarks that seed its database
 * directly: the account, the Folders field id and an admin token, and a `close` that removes it all.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/service/create-service.js';
import { serviceConfig } from '../../src/service/config.js';
import { LOCAL_SUBDOMAIN } from '../../src/service/bootstrap.js';

export interface BenchService {
  running: RunningService;
  accountId: string;
  foldersId: string;
  token: string;
  close(): Promise<void>;
}

/**
 * `keepDir`: the data dir to use and leave in place on close (made if missing), so a bench can reuse
 * what an earlier run seeded there; without it, a temp dir removed on close.
 */
export async function startBenchService(prefix: string, keepDir?: string): Promise<BenchService> {
  const dataDir = keepDir ?? mkdtempSync(join(tmpdir(), prefix));
  if (keepDir !== undefined) mkdirSync(keepDir, { recursive: true });
  const running = await startService(serviceConfig({ dataDir, port: 0, adminPassword: 'bench-password' }));
  const close = async (): Promise<void> => {
    await running.close();
    if (keepDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { ctx } = running;
    const accountId = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '';
    const foldersId = ctx.fields.byRole(accountId, 'FOLDERS')?.id ?? '';
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    if (admin === undefined) throw new Error('no admin');
    const token = await ctx.tokens.issue({ sub: admin.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
    return { running, accountId, foldersId, token, close };
  } catch (error) {
    await close();
    throw error;
  }
}

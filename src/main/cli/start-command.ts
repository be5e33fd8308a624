/**
 * `asset-sync start` (`npm start`): the main job. Until the sync engine lands it runs the embedded local
 * service in the user's data directory and says how to reach it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../service/create-service.js';
import { serviceConfig } from '../../service/config.js';
import { envValue, integerFlag, parseFlags } from './parse-flags.js';
import type { CommandIo } from './command-io.js';

export const startHelp = `Usage: asset-sync start [--data DIR] [--port N]

Runs Asset Sync. Today that is the embedded local asset service, on 127.0.0.1.
  --data DIR   service data (default $XDG_DATA_HOME/asset-sync/service)
  --port N     port (default 7480)`;

export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'asset-sync', 'service');
}

export async function startCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('start', args, { data: { type: 'string' }, port: { type: 'string' } });
  if (values.help === true) {
    io.out(startHelp);
    return 0;
  }
  const dataDir = values.data ?? defaultDataDir(io.env);
  const config = serviceConfig({ dataDir, port: integerFlag('port', values.port, 7480, 0, 65535), adminPassword: envValue(io.env.ASSET_SYNC_ADMIN_PASSWORD) });
  const service = await startService(config);
  io.out(`Asset Sync: the local asset service is running at ${service.url} (data in ${dataDir}).`);
  if (service.bootstrap.generatedAdminPassword !== undefined) {
    io.out(`Its admin is ${config.adminEmail}, password ${service.bootstrap.generatedAdminPassword} (shown once). Sign in with \`npx asset-sync login --server ${service.url}\`: it opens the sign-in page in your browser.`);
  }
  io.out(`Get a token for the API with: npx asset-sync token --data ${dataDir}`);
  io.out(`Sync a folder with it: npx asset-sync login --server ${service.url}, then npx asset-sync sync --server ${service.url} --folder DIR`);
  io.out('The desktop app and its UI are not built yet; press Ctrl+C to stop.');
  await io.untilInterrupted();
  await service.close();
  return 0;
}

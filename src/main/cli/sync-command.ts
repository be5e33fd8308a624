/**
 * `asset-sync sync`: syncs local folders to the service. With `--once`, one full pass that exits 0
 * only when everything converged (and says why not otherwise); without it, keeps watching until
 * interrupted. Progress goes to stderr: a live line on a terminal (files, bytes, rate, ETA), plain
 * lines otherwise.
 */
import { createApiClient } from '../api/index.js';
import { assertTokensFor, createTokenProvider, readTokens, tokenFromEnv } from '../auth/index.js';
import { createEngine, type Engine } from '../engine/index.js';
import { NativeWatcher, NodeFileSystem, createFreedesktopTrash, systemClock } from '../local/index.js';
import { InlineCalls } from '../disk/inline-calls.js';
import type { PassReport } from '../sync/root-sync.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { integerFlag, parseFlags, urlFlag } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { ProgressLine, plural } from './progress-line.js';
import { heldSides } from './held-words.js';
import { ConnectivityLine } from './connectivity-line.js';
import { guardAdvice } from './folders-command.js';
import { FileLog } from '../log/file-log.js';
import { join, resolve } from 'node:path';
import { isRemapChoice } from '../../shared/sync/remap-choice.js';
import { SyncError } from '../model/sync-error.js';
import { readStateDir } from '../store/state-dir.js';

export const syncHelp = `Usage: asset-sync sync [--server URL] [--folder DIR] [--remote /Path] [--state DIR]
                       [--remap move|leave] [--publish live] [--once] [--stable-ms N] [--max-upload-rate MB]

Keeps local folders and the service in step, both ways: local changes upload, the service's changes
download (deletions go to the trash; files both sides changed become conflicts, see \`asset-sync
conflicts\`). --folder adds (or updates) a synced folder; every folder of the state directory
syncs. Sign in first with \`asset-sync login\`, or set ASSET_SYNC_TOKEN.
  --server URL     the asset service (default: the one you signed in to)
  --folder DIR     a local folder to sync (its subfolders map to folders of the service); refused
                   when it is inside, around or the same as a synced folder, on disk or in the service
  --remote /Path   the service folder it maps to (default /, the top level); only that folder is
                   listed and downloaded
  --remap move|leave   when --remote gives a synced folder another place in the service: move
                   what is in the old place along to the new one, or leave it there and upload the
                   folder's files to the new place; asked for (REMAP_CHOICE_NEEDED) when needed.
                   Files on this computer stay either way
  --publish live   new assets go LIVE instead of staying STAGED
  --once           one full pass; exit 0 only when everything converged
  --stable-ms N    how long a file must stay unchanged before it uploads (default 1500)
  --max-upload-rate MB, --max-download-rate MB   bandwidth caps in MB/s (default: none)
  --state DIR      state directory (default $XDG_STATE_HOME/asset-sync)`;

export async function syncCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('sync', args, {
    server: { type: 'string' },
    folder: { type: 'string' },
    remote: { type: 'string' },
    remap: { type: 'string' },
    state: { type: 'string' },
    publish: { type: 'string' },
    once: { type: 'boolean' },
    'stable-ms': { type: 'string' },
    'max-upload-rate': { type: 'string' },
    'max-download-rate': { type: 'string' },
  });
  if (values.help === true) {
    io.out(syncHelp);
    return 0;
  }
  if (values.publish !== undefined && values.publish !== 'live') throw new CliError('USAGE', `--publish takes "live", got "${values.publish}".`);
  if (values.remote !== undefined && !values.remote.startsWith('/')) throw new CliError('USAGE', `--remote must start with "/", got "${values.remote}".`);
  const remap = values.remap;
  if (remap !== undefined && !isRemapChoice(remap)) throw new CliError('USAGE', `--remap takes "move" or "leave", got "${remap}".`);
  const stateDir = stateDirOf(values.state, io.env);
  const signedIn = await readTokens(stateDir).catch(() => undefined);
  const server = urlFlag('server', values.server) ?? signedIn?.server ?? knownServer(stateDir);
  if (server === undefined) throw new CliError('USAGE', 'asset-sync sync needs --server URL (or sign in first with `asset-sync login --server URL`).');
  // Said before anything starts; the token provider enforces it on every request regardless.
  if (signedIn !== undefined && tokenFromEnv(io.env) === undefined) assertTokensFor(signedIn, server);

  const rate = (name: string, value: string | undefined): number | null => (value === undefined ? null : integerFlag(name, value, 0, 1, 100_000) * 1_000_000);
  const progress = new ProgressLine(io);
  const fileLog = new FileLog(join(stateDir, 'logs'));
  // One budget of event-loop time for the small file calls of the scan and of the uploads.
  const inline = new InlineCalls();
  // Ctrl+C also ends every wait for an unreachable service.
  const controller = new AbortController();
  void io.untilInterrupted().then(() => controller.abort());
  // Reads the client's state only once it exists (the line draws after the first change).
  const line = new ConnectivityLine(io, () => api.connectivity());
  const api = createApiClient({
    server,
    inline,
    stop: controller.signal,
    whileUnreachable: values.once === true ? 'fail' : 'wait',
    onConnectivity: (change) => {
      fileLog.write({ level: change.state === 'reachable' ? 'info' : 'warn', message: 'connectivity', ...change });
      line.changed(change);
    },
    tokens: createTokenProvider({ stateDir, env: io.env }),
    env: io.env,
    bandwidth: { uploadBytesPerSecond: rate('max-upload-rate', values['max-upload-rate']), downloadBytesPerSecond: rate('max-download-rate', values['max-download-rate']) },
  });
  fileLog.write({ level: 'info', message: 'sync started', server, once: values.once === true });
  const engine = createEngine(
    // The state of this server (store/state-owner.ts): a state dir that synced elsewhere keeps that state aside.
    { stateDir, server, owner: { service: server, userId: null, server }, stableMs: integerFlag('stable-ms', values['stable-ms'], 1500, 0, 3_600_000) },
    {
      api,
      fs: new NodeFileSystem({ inline }),
      clock: systemClock,
      createWatcher: (root, rules) => new NativeWatcher({ root, rules, clock: systemClock }),
      log: (event) => {
        fileLog.write({ ...event });
        // While the service is unreachable, its one line says it all: not a failure per file and per poll.
        if (line.quiets(event.message)) return;
        line.note(() => progress.note(`${event.level === 'warn' ? 'warning: ' : ''}${event.relPath === undefined ? '' : `${event.relPath}: `}${event.message}`));
      },
      onBytes: (_relPath, bytes) => progress.bytes(bytes),
      onTransfer: (event) => progress.transfer(event),
      trash: createFreedesktopTrash({ env: io.env }),
    },
  );
  try {
    if (values.folder !== undefined) {
      // A known folder keeps its place unless --remote names another.
      const known = engine.roots().find((row) => row.path === resolve(values.folder ?? ''));
      await engine.addRoot({ path: values.folder, remotePath: values.remote ?? known?.remote_path ?? '/', publishLive: values.publish === 'live', ...(remap === undefined ? {} : { remap }) }).catch((error: unknown) => {
        if (error instanceof SyncError && error.code === 'REMAP_CHOICE_NEEDED') throw new SyncError(error.code, `${error.message} Run it again with --remap move or --remap leave.`);
        throw error;
      });
    }
    if (engine.roots().length === 0) throw new CliError('USAGE', 'No folder to sync: add one with --folder DIR.');
    const advised = new Map<string, string>();
    const report = (pass: PassReport): void => {
      if (pass.operations > 0 || pass.stopped !== undefined) fileLog.write({ level: pass.failed > 0 || pass.stopped !== undefined ? 'warn' : 'info', message: 'pass', ...pass });
      if (line.unreachable && pass.stopped === undefined && !progressed(pass)) return;
      const path = engine.roots().find((row) => row.id === pass.rootId)?.path ?? pass.rootId;
      line.note(() => progress.pass(pass, path));
      // A watching sync names the way out once per stop, not on every pass.
      if (pass.stopped !== undefined && advised.get(pass.rootId) !== pass.stopped && values.once !== true) line.note(() => io.err(`${path}: ${guardAdvice(path, pass.stopped ?? '')}`));
      if (pass.stopped === undefined) advised.delete(pass.rootId);
      else advised.set(pass.rootId, pass.stopped);
    };
    if (values.once === true) {
      const result = await engine.syncOnce({ onReport: report });
      progress.done();
      line.close();
      return explain(engine, io, result.converged, server);
    }
    io.err(`Watching ${engine.roots().map((row) => row.path).join(', ')}; press Ctrl+C to stop.`);
    await engine.watch(controller.signal, report);
    progress.done();
    return 0;
  } finally {
    line.close();
    engine.close();
    api.close();
  }
}

/** Failure reasons that mean the service was not reached. */
const UNREACHED: ReadonlySet<string> = new Set(['NETWORK', 'TIMEOUT']);

/** Whether a pass got anything done (a pass that only failed says nothing new while the service is away). */
function progressed(pass: PassReport): boolean {
  return pass.uploaded + pass.versions + pass.moved + pass.removed + pass.downloaded + pass.localMoved + pass.trashed + pass.conflicts > 0;
}

/** The one server the state directory's folders sync with, when they agree on one. */
function knownServer(stateDir: string): string | undefined {
  return readStateDir(stateDir, (store) => {
    const servers = new Set(store.roots().map((row) => row.server));
    return servers.size === 1 ? [...servers][0] : undefined;
  });
}

/** Exit status of `--once`, with what stands between the folders and "up to date". */
function explain(engine: Engine, io: CommandIo, converged: boolean, server: string): number {
  const statuses = engine.store.status();
  for (const root of statuses) {
    if (root.stopped !== null) io.err(`${root.path}: stopped (${root.stopped}). Nothing was deleted. ${guardAdvice(root.path, root.stopped)}`);
    // One line for every file the service's absence explains, not one per file.
    const unreached = root.notSynced.filter((issue) => UNREACHED.has(issue.reason));
    if (unreached.length > 0) {
      io.err(`${root.path}: ${plural(unreached.length, 'file')} not synced: the service at ${server} could not be reached; they go on the next sync. [${unreached[0]?.reason ?? 'NETWORK'}]`);
    }
    for (const issue of root.notSynced.filter((row) => !UNREACHED.has(row.reason))) io.err(`${root.path}: not synced: ${issue.relPath}: ${issue.reason}: ${issue.detail}`);
    for (const conflict of root.conflicts) io.err(`${root.path}: conflict #${conflict.id}: ${conflict.relPath} changed on both sides; yours is ${conflict.copyPath} (\`asset-sync resolve ${conflict.id} --keep mine|theirs|both\`).`);
    if (root.heldDeletes.count > 0) {
      io.err(`${root.path}: ${plural(root.heldDeletes.count, 'deletion')} ${root.heldDeletes.count === 1 ? 'waits' : 'wait'} for confirmation (${heldSides(root.heldDeletes.count - root.heldDeletes.local, root.heldDeletes.local)}; e.g. ${root.heldDeletes.sample.slice(0, 3).join(', ')}); run \`asset-sync confirm-deletes\` if they are intended.`);
    }
  }
  if (converged) io.out(`up to date: ${statuses.map((root) => `${root.path} (${plural(root.syncedFiles, 'file')})`).join(', ')}`);
  return converged ? 0 : 1;
}

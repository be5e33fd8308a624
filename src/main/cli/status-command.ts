/** `asset-sync status`: each synced folder's state, counts, uploads under way and what could not sync. */
import type { RootStatus } from '../store/read-status.js';
import { readStateDir } from '../store/state-dir.js';
import { parseFlags, urlFlag } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { plural } from './progress-line.js';
import { heldSides } from './held-words.js';
import { formatDuration } from '../../shared/sync/transfer-estimate.js';
import { guardAdvice } from './folders-command.js';
import { findRunningApp } from '../control/control-client.js';
import type { AppState, FolderActivity } from '../../shared/bridge/app-state.js';

export const statusHelp = `Usage: asset-sync status [--state DIR] [--server URL] [--json]

Shows each synced folder: up to date, syncing, needs attention or stopped; file counts; uploads
under way; files that could not sync, with the reason; conflicts; deletions waiting for confirmation.`;

export async function statusCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('status', args, { state: { type: 'string' }, server: { type: 'string' }, json: { type: 'boolean' } });
  const server = urlFlag('server', values.server);
  if (values.help === true) {
    io.out(statusHelp);
    return 0;
  }
  const stateDir = stateDirOf(values.state, io.env);
  // While the app runs it knows more than the database (progress, pauses, offline): ask it.
  const app = await findRunningApp(stateDir);
  if (app !== undefined) return printAppStatus(io, stateDir, app.client.origin, app.state, server, values.json === true);
  const roots: RootStatus[] = (readStateDir(stateDir, (store) => store.status()) ?? []).filter((root) => server === undefined || root.server === server);
  if (values.json === true) {
    io.out(JSON.stringify({ stateDir, roots }, null, 2));
    return 0;
  }
  if (roots.length === 0) {
    io.out(`No synced folders in ${stateDir}. Add one with \`asset-sync sync --folder DIR --server URL\`.`);
    return 0;
  }
  for (const root of roots) {
    io.out(`${root.path} → ${root.server} ${root.remotePath}`);
    const state = root.state === 'NEVER_SYNCED' ? 'never synced: the service has not been reached yet' : root.state.replaceAll('_', ' ').toLowerCase();
    const waiting = root.pendingUploads > 0 ? ` · ${plural(root.pendingUploads, 'file')} waiting to upload` : '';
    io.out(`  ${state}${root.stopped === null ? '' : `: ${root.stopped}`} · ${root.syncedFiles} synced of ${plural(root.localFiles, 'local file')}${waiting}${root.publishLive ? ' · publishing LIVE' : ''}`);
    if (root.stopped !== null) io.out(`  ${guardAdvice(root.path, root.stopped)}`);
    for (const upload of root.uploadsInProgress) io.out(`  uploading ${upload.relPath} (${plural(upload.partsDone, 'part')} done)`);
    for (const issue of root.notSynced) io.out(`  not synced: ${issue.relPath}: ${issue.reason}: ${issue.detail}`);
    for (const conflict of root.conflicts) io.out(`  conflict #${conflict.id}: ${conflict.relPath} (yours: ${conflict.copyPath}); resolve with \`asset-sync resolve ${conflict.id} --keep mine|theirs|both\``);
    if (root.heldDeletes.count > 0) {
      io.out(`  ${plural(root.heldDeletes.count, 'deletion')} ${root.heldDeletes.confirmed ? 'confirmed, applied on the next pass' : `${root.heldDeletes.count === 1 ? 'waits' : 'wait'} for \`asset-sync confirm-deletes\``} (${heldSides(root.heldDeletes.count - root.heldDeletes.local, root.heldDeletes.local)}): ${root.heldDeletes.sample.join(', ')}${root.heldDeletes.count > root.heldDeletes.sample.length ? ', …' : ''}`);
    }
  }
  return 0;
}

/** A folder's activity in the words of `status` (exported for its tests). */
export function describeActivity(activity: FolderActivity): string {
  switch (activity.kind) {
    case 'up-to-date':
      return 'up to date';
    case 'waiting':
      return `${plural(activity.waiting, 'file')} waiting to sync`;
    case 'attention':
      return 'needs attention';
    case 'scanning':
      return 'looking for changes';
    case 'syncing': {
      const { send, receive } = activity.progress;
      const files = send.filesDone + receive.filesDone;
      const planned = send.filesPlanned + receive.filesPlanned;
      return `syncing ${files} of ${plural(planned, 'file')}${activity.progress.etaSeconds === null ? '' : `, about ${formatDuration(activity.progress.etaSeconds)} left`}`;
    }
    case 'paused':
      return `paused${activity.until === null ? ' until resumed' : ` until ${activity.until}`} (${plural(activity.waiting, 'file')} waiting)`;
    case 'offline':
      return `offline: ${plural(activity.waiting, 'file')} waiting`;
    case 'signed-out':
      return 'signed out: sign in again in the app';
    case 'stopped':
      return `stopped: ${activity.message} ${activity.fix}`;
    case 'error':
      return `error: ${activity.error.message}`;
  }
}

/** `status` from the running app's state. */
function printAppStatus(io: CommandIo, stateDir: string, origin: string, state: AppState, server: string | undefined, json: boolean): number {
  const account = state.account;
  const folders = state.folders.filter(() => server === undefined || (account.kind === 'signed-in' && account.server === server));
  if (json) {
    io.out(JSON.stringify({ stateDir, app: origin, overall: state.overall, folders, conflicts: state.conflicts, notSynced: state.notSynced, heldDeletions: state.heldDeletions }, null, 2));
    return 0;
  }
  io.out(`The Asset Sync app is running (${state.overall.replaceAll('-', ' ')}).`);
  if (folders.length === 0) {
    io.out('No synced folders yet: add one in the app.');
    return 0;
  }
  for (const folder of folders) {
    io.out(`${folder.path} → ${account.kind === 'signed-in' || account.kind === 'signed-out' ? account.server : '(no account)'} ${folder.remotePath}`);
    io.out(`  ${describeActivity(folder.activity)} · ${folder.syncedFiles} synced of ${plural(folder.localFiles, 'local file')}${folder.publishLive ? ' · publishing LIVE' : ''}`);
    for (const issue of state.notSynced.filter((item) => item.folderId === folder.id)) io.out(`  not synced: ${issue.relPath}: ${issue.reason} ${issue.fix}`);
    for (const conflict of state.conflicts.filter((item) => item.folderId === folder.id)) io.out(`  conflict #${conflict.id}: ${conflict.relPath} (yours: ${conflict.copyPath}); resolve it in the app`);
    for (const held of state.heldDeletions.filter((item) => item.folderId === folder.id)) io.out(`  ${plural(held.count, 'deletion')} ${held.count === 1 ? 'waits' : 'wait'} for confirmation in the app (${heldSides(held.deletedOnComputer, held.deletedInService)}): ${held.sample.slice(0, 10).join(', ')}${held.count > 10 ? ', …' : ''}`);
  }
  return 0;
}

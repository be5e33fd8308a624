/** `asset-sync status`: each synced folder's state, counts, uploads under way and what could not sync. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStateDb } from '../db/open-state-db.js';
import { readStatus, type RootStatus } from '../sync/read-status.js';
import { parseFlags, urlFlag } from './parse-flags.js';
import { stateDirOf } from './state-dir.js';
import type { CommandIo } from './command-io.js';
import { plural } from './progress-line.js';

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
  const file = join(stateDir, 'state.db');
  const roots: RootStatus[] = [];
  if (existsSync(file)) {
    const db = openStateDb(file);
    try {
      roots.push(...readStatus(db).filter((root) => server === undefined || root.server === server));
    } finally {
      db.close();
    }
  }
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
    for (const upload of root.uploadsInProgress) io.out(`  uploading ${upload.relPath} (${plural(upload.partsDone, 'part')} done)`);
    for (const issue of root.notSynced) io.out(`  not synced: ${issue.relPath}: ${issue.reason}: ${issue.detail}`);
    for (const conflict of root.conflicts) io.out(`  conflict #${conflict.id}: ${conflict.relPath} (yours: ${conflict.copyPath}); resolve with \`asset-sync resolve ${conflict.id} --keep mine|theirs|both\``);
    if (root.heldDeletes.count > 0) {
      io.out(`  ${plural(root.heldDeletes.count, 'deletion')} ${root.heldDeletes.confirmed ? 'confirmed, applied on the next pass' : 'wait for `asset-sync confirm-deletes`'}: ${root.heldDeletes.sample.join(', ')}${root.heldDeletes.count > root.heldDeletes.sample.length ? ', …' : ''}`);
    }
  }
  return 0;
}

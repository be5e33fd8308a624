/**
 * `asset-sync folders`: the synced folders of a state directory, and the way back after a guard stopped
 * one. `folders remove DIR` forgets a folder (its state and its marker; never a file on either side),
 * `folders relink DIR [--to NEW]` points it at the folder again — moved, restored from a backup, or its
 * marker lost — once the folder holds the files last synced (folder-match.ts), so an empty mount point
 * can never be relinked into "delete everything".
 */
import { resolve } from 'node:path';
import type { RootRow } from '../db/roots-repo.js';
import { readStateDir, withStateDir } from '../store/state-dir.js';
import type { StateStore } from '../store/state-store.js';
import { NodeFileSystem, markerPath, readRootMarker, systemClock, writeRootMarker, type FileSystem, type RootMarker } from '../local/index.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { matchFolder, matches } from './folder-match.js';
import { refuseOverlap } from '../engine/index.js';
import { parseFlags } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const foldersHelp = `Usage: asset-sync folders [--state DIR] [--json]
       asset-sync folders remove DIR [--state DIR]
       asset-sync folders relink DIR [--to NEWDIR] [--state DIR]

Lists the synced folders. \`remove\` forgets one: its sync state and its marker go, no file is touched
on disk or on the service (sync it again later with \`asset-sync sync --folder DIR\`). \`relink\`
points a stopped folder at its files again: where it moved to (--to), or the same place after a
restore from a backup or a lost .asset-sync marker. It first checks that the folder holds the files
last synced and overlaps no other synced folder (inside, around or the same); otherwise it changes
nothing.`;

/** The way out of a guard's stop, named in every message that reports one. */
export function guardAdvice(path: string, stopped: string): string {
  const remove = `to stop syncing it: \`asset-sync folders remove ${path}\``;
  if (stopped.startsWith('MISSING_ROOT')) return `If it moved: \`asset-sync folders relink ${path} --to NEWDIR\`; ${remove}.`;
  return `If this is the folder (restored from a backup, or its .asset-sync marker was removed): \`asset-sync folders relink ${path}\`; ${remove}.`;
}

export async function foldersCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('folders', args, { state: { type: 'string' }, json: { type: 'boolean' }, to: { type: 'string' } }, { positionals: 2 });
  if (values.help === true) {
    io.out(foldersHelp);
    return 0;
  }
  const [verb, dir] = positionals;
  const stateDir = stateDirOf(values.state, io.env);
  if (verb === undefined) return list(stateDir, io, values.json === true);
  if (verb !== 'remove' && verb !== 'relink') throw new CliError('USAGE', `unknown folders command "${verb}"; use remove or relink (see \`asset-sync folders --help\`).`);
  if (dir === undefined) throw new CliError('USAGE', `asset-sync folders ${verb} needs the folder: asset-sync folders ${verb} DIR.`);
  if (verb === 'remove' && values.to !== undefined) throw new CliError('USAGE', '--to goes with `folders relink`, not `folders remove`.');
  const status = await withStateDir(stateDir, async (store) => {
    const row = store.rootByPath(resolve(dir));
    if (row === undefined) throw new CliError('NOT_FOUND', `${resolve(dir)} is not a synced folder (see \`asset-sync folders\`).`);
    const fs = new NodeFileSystem();
    return verb === 'remove' ? await remove(store, fs, row, io) : await relink(store, fs, row, resolve(values.to ?? dir), io);
  });
  if (status === undefined) throw new CliError('NOT_FOUND', `No synced folders in ${stateDir}.`);
  return status;
}

function list(stateDir: string, io: CommandIo, json: boolean): number {
  const rows = readStateDir(stateDir, (store) => store.roots()) ?? [];
  const folders = rows.map((row) => ({ path: row.path, server: row.server, remotePath: row.remote_path, publishLive: row.publish_live === 1, stopped: row.stopped }));
  if (json) io.out(JSON.stringify({ stateDir, folders }, null, 2));
  else if (folders.length === 0) io.out(`No synced folders in ${stateDir}. Add one with \`asset-sync sync --folder DIR --server URL\`.`);
  else {
    for (const folder of folders) {
      io.out(`${folder.path} → ${folder.server} ${folder.remotePath}${folder.stopped === null ? '' : ` · stopped: ${folder.stopped}`}`);
      if (folder.stopped !== null) io.out(`  ${guardAdvice(folder.path, folder.stopped)}`);
    }
  }
  return 0;
}

async function markerOf(fs: FileSystem, dir: string): Promise<RootMarker | 'INVALID' | undefined> {
  return readRootMarker(fs, dir).catch((): 'INVALID' => 'INVALID');
}

async function remove(store: StateStore, fs: FileSystem, row: RootRow, io: CommandIo): Promise<number> {
  // Our marker goes too, so the folder can be synced afresh; a marker of another root stays.
  const marker = await markerOf(fs, row.path);
  if (marker !== undefined && marker !== 'INVALID' && marker.rootId === row.id) await fs.unlink(markerPath(row.path));
  store.forgetRoot(row.id);
  io.out(`Forgot ${row.path}: no file was changed, on disk or on the service. Sync it again with \`asset-sync sync --folder ${row.path}\`.`);
  return 0;
}

async function relink(store: StateStore, fs: FileSystem, row: RootRow, target: string, io: CommandIo): Promise<number> {
  const stat = await fs.stat(target).catch(() => undefined);
  if (stat?.kind !== 'directory') throw new CliError('NOT_FOUND', `${target} is not a folder; nothing was changed.`);
  const other = store.rootByPath(target);
  if (other !== undefined && other.id !== row.id) throw new CliError('FAILED', `${target} is already the synced folder of another entry; nothing was changed.`);
  // Moved on disk, it keeps its place in the service: only the disk is checked.
  if (target !== row.path) await refuseOverlap(fs, { path: target, remotePath: row.remote_path }, store.roots().filter((root) => root.id !== row.id), 'disk');
  const marker = await markerOf(fs, target);
  const foreign = marker !== undefined && (marker === 'INVALID' || marker.rootId !== row.id);
  if (foreign && marker !== 'INVALID' && store.root(marker.rootId) !== undefined) {
    throw new CliError('FAILED', `${target} is the synced folder ${store.root(marker.rootId)?.path ?? marker.rootId}; nothing was changed.`);
  }
  const match = await matchFolder(fs, target, store.synced(row.id).values());
  if (!matches(match)) {
    throw new CliError(
      'FAILED',
      `${target} holds ${match.matched} of the ${match.expected} files last synced from ${row.path} (not there or different: ${match.missing.join(', ')}${match.expected - match.matched > match.missing.length ? ', …' : ''}). ` +
        `It does not look like that folder (an empty mount point, another folder?), so nothing was changed. Restore its files first, or start over with \`asset-sync folders remove ${row.path}\` and a new sync.`,
    );
  }
  if (foreign) await fs.unlink(markerPath(target));
  await writeRootMarker(fs, target, { rootId: row.id, server: row.server, remotePath: row.remote_path }, systemClock);
  store.relinkRoot(row, target);
  io.out(`Relinked ${row.path}${target === row.path ? '' : ` to ${target}`}: ${match.matched} of the ${match.expected} synced files are in place; the next sync carries on from there.`);
  return 0;
}

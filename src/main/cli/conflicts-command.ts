/**
 * `asset-sync conflicts` lists the conflicts waiting for the user (both versions' details);
 * `asset-sync resolve ID --keep mine|theirs|both` resolves one. Both work on the state directory and
 * the disk only; the next sync carries the resolution to the service.
 */
import { join } from 'node:path';
import { readStateDir, withStateDir } from '../store/state-dir.js';
import { NodeFileSystem, createFreedesktopTrash } from '../local/index.js';
import { resolveConflict, type Keep } from '../sync/resolve-conflict.js';
import { CliError } from '../../platform/cli/cli-error.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { parseFlags } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from './state-dir.js';
import { findRunningApp } from '../control/control-client.js';

export const conflictsHelp = `Usage: asset-sync conflicts [--state DIR] [--json]

Lists the files both sides changed. The service's version kept the file's name; yours sits beside it
as "name (conflict DATE TIME).ext" and is not uploaded until you resolve it with \`asset-sync resolve\`.`;

export const resolveHelp = `Usage: asset-sync resolve ID --keep mine|theirs|both [--state DIR]

Resolves conflict ID (see \`asset-sync conflicts\`):
  mine     your version becomes the file again and uploads as a new version of the asset
  theirs   your conflict copy goes to the trash; the service's version stays
  both     your conflict copy stays and uploads as an asset of its own`;

export async function conflictsCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('conflicts', args, { state: { type: 'string' }, json: { type: 'boolean' } });
  if (values.help === true) {
    io.out(conflictsHelp);
    return 0;
  }
  const stateDir = stateDirOf(values.state, io.env);
  const app = await findRunningApp(stateDir);
  if (app !== undefined) {
    const conflicts = app.state.conflicts;
    const roots = new Map(app.state.folders.map((folder) => [folder.id, folder.path]));
    if (values.json === true) {
      io.out(JSON.stringify({ stateDir, app: app.client.origin, conflicts }, null, 2));
      return 0;
    }
    if (conflicts.length === 0) {
      io.out('No conflicts.');
      return 0;
    }
    for (const conflict of conflicts) {
      io.out(`#${conflict.id} ${join(roots.get(conflict.folderId) ?? '', conflict.relPath)}`);
      io.out(`  theirs: ${conflict.relPath} (${conflict.theirs.size ?? '?'} bytes, changed ${conflict.theirs.modifiedAt ?? '?'})`);
      io.out(`  yours:  ${conflict.copyPath} (${conflict.mine.size ?? '?'} bytes, changed ${conflict.mine.modifiedAt ?? '?'})`);
    }
    io.out('Resolve them in the Asset Sync app (it is running), or with `asset-sync resolve ID --keep mine|theirs|both`.');
    return 0;
  }
  const listed =
    readStateDir(stateDir, (store) => {
      const roots = new Map(store.roots().map((row) => [row.id, row.path]));
      return store.conflicts().map((conflict) => ({ ...conflict, rootPath: roots.get(conflict.rootId) ?? '' }));
    }) ?? [];
  if (values.json === true) {
    io.out(JSON.stringify({ stateDir, conflicts: listed }, null, 2));
    return 0;
  }
  if (listed.length === 0) {
    io.out('No conflicts.');
    return 0;
  }
  for (const conflict of listed) {
    io.out(`#${conflict.id} ${join(conflict.rootPath, conflict.relPath)}`);
    io.out(`  theirs: ${conflict.relPath} (${conflict.remote.size} bytes, md5 ${conflict.remote.md5}, changed ${conflict.remote.dateModified})`);
    io.out(`  yours:  ${conflict.copyPath} (${conflict.local.size} bytes, md5 ${conflict.local.md5}, changed ${new Date(conflict.local.mtimeMs).toISOString()})`);
  }
  io.out(`Resolve with \`asset-sync resolve ID --keep mine|theirs|both\`.`);
  return 0;
}

export async function resolveCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('resolve', args, { state: { type: 'string' }, keep: { type: 'string' } }, { positionals: Infinity });
  if (values.help === true) {
    io.out(resolveHelp);
    return 0;
  }
  const [idText, ...extra] = positionals;
  if (idText === undefined || extra.length > 0 || !/^\d+$/.test(idText)) throw new CliError('USAGE', `asset-sync resolve needs one conflict ID (see \`asset-sync conflicts\`).`);
  const keep = values.keep;
  if (keep !== 'mine' && keep !== 'theirs' && keep !== 'both') throw new CliError('USAGE', `--keep takes mine, theirs or both${keep === undefined ? '' : `, got "${keep}"`}.`);
  const stateDir = stateDirOf(values.state, io.env);
  const message = await withStateDir(stateDir, (store) =>
    resolveConflict(
      { fs: new NodeFileSystem(), trash: createFreedesktopTrash({ env: io.env }), ...store.resolution },
      Number(idText),
      keep satisfies Keep,
    ),
  );
  if (message === undefined) throw new CliError('NOT_FOUND', `No sync state in ${stateDir}.`);
  io.out(message);
  return 0;
}

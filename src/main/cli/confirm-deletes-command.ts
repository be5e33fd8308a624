/** `asset-sync confirm-deletes`: lets the deletions the mass-delete guard held go through on the next pass. */
import { readStateDir } from '../store/state-dir.js';
import { parseFlags, urlFlag } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import { plural } from './progress-line.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export async function confirmDeletesCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('confirm-deletes', args, { state: { type: 'string' }, server: { type: 'string' } });
  const server = urlFlag('server', values.server);
  if (values.help === true) {
    io.out('Usage: asset-sync confirm-deletes [--state DIR] [--server URL]\n\nConfirms the deletions the mass-delete guard is holding; the next sync pass carries each to the\nother side: files deleted on this computer are deleted in the service (an asset whose last folder it\nwas moves to the bin, from which it can be restored), and files deleted in the service go to this\ncomputer’s Trash.');
    return 0;
  }
  const total = readStateDir(stateDirOf(values.state, io.env), (store) => {
    let confirmed = 0;
    for (const root of store.roots().filter((row) => server === undefined || row.server === server)) {
      const count = store.confirmDeletes(root.id);
      if (count > 0) io.out(`${root.path}: ${plural(count, 'deletion')} confirmed; the next sync pass carries them out.`);
      confirmed += count;
    }
    return confirmed;
  });
  if (total === undefined) io.out('Nothing to confirm: no sync state here.');
  else if (total === 0) io.out('No deletions are waiting for confirmation.');
  return 0;
}

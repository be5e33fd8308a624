/** `asset-sync group …`: manages the groups, their members and folder limits, of a local service's data directory. */
import { resolve } from 'node:path';
import { addGroup, listGroups, removeGroup, setGroup, type GroupFlags, type GroupSummary } from './group-admin.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags, requiredFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const groupHelp = `Usage: asset-sync group <action> --data DIR [options]

Manages the user groups of the service whose data is in DIR (it may be running). A group limited to
folders lets its members (other than admins) see and act on the assets in those folders and their
subfolders only; a user in no limited group is not limited.
  list     [--json]
  add      --name N [--description D] [--member EMAIL]… [--folder /PATH]…   (no --folder: no limit)
  set      --name N [--rename M] [--description D] [--member EMAIL]… [--folder /PATH]… [--all-folders]
           (--member and --folder replace the lists they name; --all-folders lifts the folder limit)
  remove   --name N`;

const actions = ['add', 'list', 'remove', 'set'] as const;

function describe(group: GroupSummary): string {
  const folders = group.folders === null ? 'all folders' : group.folders.join(', ') || 'no folders';
  return `${group.id.padEnd(38)} ${group.name.padEnd(24)} ${folders} — ${group.members.length === 0 ? 'no members' : group.members.join(', ')}`;
}

export async function groupCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('group', args, {
    data: { type: 'string' },
    subdomain: { type: 'string' },
    name: { type: 'string' },
    rename: { type: 'string' },
    description: { type: 'string' },
    member: { type: 'string', multiple: true },
    folder: { type: 'string', multiple: true },
    'all-folders': { type: 'boolean' },
    json: { type: 'boolean' },
  }, { positionals: 1 });
  if (values.help === true) {
    io.out(groupHelp);
    return 0;
  }
  const [action] = positionals;
  const known = actions.find((name) => name === action);
  if (known === undefined) {
    throw new CliError('USAGE', `${action === undefined ? 'an action is needed' : `unknown action "${action}"`}; use one of ${actions.join(', ')} (see \`asset-sync group --help\`).`);
  }
  const target = { dataDir: resolve(requiredFlag('group', 'data', values.data)), subdomain: values.subdomain };
  const flags: GroupFlags = {
    rename: values.rename,
    description: values.description,
    members: values.member,
    folders: values.folder,
    allFolders: values['all-folders'],
  };

  switch (known) {
    case 'list': {
      const groups = await listGroups(target);
      if (values.json === true) io.out(JSON.stringify(groups, null, 2));
      else for (const group of groups) io.out(describe(group));
      return 0;
    }
    case 'add': {
      if (flags.allFolders === true && flags.folders !== undefined) throw new CliError('USAGE', '--all-folders and --folder exclude each other.');
      const group = await addGroup(target, requiredFlag('group add', 'name', values.name), flags);
      io.out(`added group "${group.name}" (${group.id})`);
      return 0;
    }
    case 'set': {
      if (flags.allFolders === true && flags.folders !== undefined) throw new CliError('USAGE', '--all-folders and --folder exclude each other.');
      const group = await setGroup(target, requiredFlag('group set', 'name', values.name), flags);
      io.out(describe(group));
      return 0;
    }
    case 'remove': {
      const group = await removeGroup(target, requiredFlag('group remove', 'name', values.name));
      io.out(`removed group "${group.name}"`);
      return 0;
    }
  }
}

/** `asset-sync user …`: manages the users of a local service's data directory. */
import { resolve } from 'node:path';
import { addUser, listUsers, parseRole, removeUser, setPassword, setRole, type UserSummary } from './user-admin.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags, requiredFlag } from '../../platform/cli/parse-flags.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const userHelp = `Usage: asset-sync user <action> --data DIR [options]

Manages who can use the service whose data is in DIR (it may be running).
  add           --email E --role admin|member|viewer [--password P] [--name N]
                (a password is generated and printed once when none is given)
  list          [--json]
  set-role      --email E --role admin|member|viewer
  set-password  --email E [--password P]
  remove        --email E
Roles: admin (everything), member (assets and folders, not the schema), viewer (look and download).
An account always keeps at least one admin.`;

const actions = ['add', 'list', 'set-role', 'set-password', 'remove'] as const;

function line(user: UserSummary): string {
  return `${user.email.padEnd(32)} ${user.role.padEnd(7)} ${user.name ?? ''}`.trimEnd();
}

export async function userCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('user', args, {
    data: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    json: { type: 'boolean' },
  }, { positionals: Infinity });
  if (values.help === true) {
    io.out(userHelp);
    return 0;
  }
  const [action, ...extra] = positionals;
  const known = actions.find((name) => name === action);
  if (known === undefined || extra.length > 0) {
    throw new CliError('USAGE', `${action === undefined ? 'an action is needed' : `unknown action "${[action, ...extra].join(' ')}"`}; use one of ${actions.join(', ')} (see \`asset-sync user --help\`).`);
  }
  const target = { dataDir: resolve(requiredFlag('user', 'data', values.data)) };
  const email = (): string => requiredFlag(`user ${known}`, 'email', values.email);

  switch (known) {
    case 'add': {
      const { user, generatedPassword } = await addUser(target, { email: email(), role: parseRole(values.role), password: values.password, name: values.name });
      io.out(`added ${user.email} as ${user.role}`);
      if (generatedPassword !== undefined) io.out(`password: ${generatedPassword} (shown once; store it now)`);
      return 0;
    }
    case 'list': {
      const users = await listUsers(target);
      if (values.json === true) io.out(JSON.stringify(users, null, 2));
      else for (const user of users) io.out(line(user));
      return 0;
    }
    case 'set-role': {
      const user = await setRole(target, email(), parseRole(values.role));
      io.out(`${user.email} is now ${user.role}`);
      return 0;
    }
    case 'set-password': {
      const generated = await setPassword(target, email(), values.password);
      io.out(generated === undefined ? `password of ${values.email ?? ''} changed` : `password: ${generated} (shown once; store it now)`);
      return 0;
    }
    case 'remove': {
      const user = await removeUser(target, email());
      io.out(`removed ${user.email}`);
      return 0;
    }
  }
}

/**
 * Group management on a data directory, for `asset-sync group …` (the hosted service configures folder
 * permissions in its web app; this installation does it here or through /groups). Members are named by
 * e-mail and folders by path (`/Brand/Logos`), then checked by the same rules as the HTTP API
 * (groups/group-changes.ts). Works while the service runs; a change applies from members' next request.
 */
import { ServiceError } from '../errors/service-error.js';
import { fieldOptionsRepo, type FieldOptionsRepo } from '../fields/field-options-repo.js';
import { fieldsRepo, type FieldsRepo } from '../fields/fields-repo.js';
import { groupChanges, type GroupInput } from '../groups/group-changes.js';
import { groupsRepo, type GroupRecord } from '../groups/groups-repo.js';
import { AdminError } from './admin-error.js';
import { withDataDir, type DataDirSession } from './data-dir.js';

export interface GroupTarget {
  dataDir: string;
  subdomain?: string | undefined;
}

export interface GroupSummary {
  id: string;
  name: string;
  description: string | null;
  /** Folder paths, or null when the group sets no folder limit. */
  folders: string[] | null;
  members: string[];
}

/** What `group add` / `group set` were given; undefined keeps the current value. */
export interface GroupFlags {
  rename?: string | undefined;
  description?: string | undefined;
  members?: readonly string[] | undefined;
  folders?: readonly string[] | undefined;
  allFolders?: boolean | undefined;
}

interface Session extends DataDirSession {
  groups: ReturnType<typeof groupsRepo>;
  fields: FieldsRepo;
  fieldOptions: FieldOptionsRepo;
  foldersFieldId: string;
}

async function withGroups<T>(target: GroupTarget, work: (session: Session) => T): Promise<T> {
  return withDataDir(target.dataDir, target.subdomain, (session) => {
    const fields = fieldsRepo(session.db);
    const folders = fields.byRole(session.account.id, 'FOLDERS');
    if (folders === undefined) throw new AdminError('NO_DATA', 'The account has no Folders field.');
    try {
      return work({ ...session, groups: groupsRepo(session.db), fields, fieldOptions: fieldOptionsRepo(session.db), foldersFieldId: folders.id });
    } catch (error) {
      // The shared checks speak the service's codes; here they are input mistakes or name clashes.
      if (error instanceof ServiceError) throw new AdminError(error.code === 'GROUP_NAME_TAKEN' ? 'GROUP_EXISTS' : 'INVALID_INPUT', error.message);
      throw error;
    }
  });
}

function folderPath(session: Session, folderId: string): string {
  const names = session.fieldOptions.ancestry(session.account.id, folderId).map((id) => session.fieldOptions.get(session.account.id, id)?.value ?? id);
  return `/${names.reverse().join('/')}`;
}

function folderId(session: Session, path: string): string {
  let parentId: string | null = null;
  for (const segment of path.split('/').filter((part) => part !== '')) {
    const option = session.fieldOptions.childByValue(session.foldersFieldId, parentId, segment.normalize('NFC'));
    if (option === undefined) throw new AdminError('INVALID_INPUT', `No folder ${path}.`);
    parentId = option.id;
  }
  if (parentId === null) throw new AdminError('INVALID_INPUT', `--folder needs a folder path such as /Brand/Logos, got "${path}".`);
  return parentId;
}

function userId(session: Session, email: string): string {
  const user = session.accounts.userByEmail(email.trim());
  if (user === undefined || session.accounts.membership(session.account.id, user.id) === undefined) {
    throw new AdminError('NO_SUCH_USER', `No user ${email} in account "${session.account.subdomain}".`);
  }
  return user.id;
}

function summary(session: Session, group: GroupRecord): GroupSummary {
  const emails = group.memberIds.map((id) => session.accounts.userById(id)?.email ?? id).sort();
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    folders: group.allFolders ? null : group.folderIds.map((id) => folderPath(session, id)).sort(),
    members: emails,
  };
}

function byName(session: Session, name: string): GroupRecord {
  const group = session.groups.list(session.account.id).find((candidate) => candidate.name === name || candidate.id === name);
  if (group === undefined) throw new AdminError('NO_SUCH_GROUP', `No group "${name}".`);
  return group;
}

function input(session: Session, flags: GroupFlags, name: string | undefined): GroupInput {
  return {
    name,
    description: flags.description,
    memberIds: flags.members?.map((email) => userId(session, email)),
    folderIds: flags.folders?.map((path) => folderId(session, path)),
    allFolders: flags.allFolders,
  };
}

export function listGroups(target: GroupTarget): Promise<GroupSummary[]> {
  return withGroups(target, (session) => session.groups.list(session.account.id).map((group) => summary(session, group)));
}

export function addGroup(target: GroupTarget, name: string, flags: GroupFlags): Promise<GroupSummary> {
  return withGroups(target, (session) => {
    const { db, groups, account } = session;
    const id = db.transaction(() => groups.create(account.id, groupChanges(session, account.id, undefined, input(session, flags, name)), new Date().toISOString()))();
    return summary(session, byName(session, id));
  });
}

export function setGroup(target: GroupTarget, name: string, flags: GroupFlags): Promise<GroupSummary> {
  return withGroups(target, (session) => {
    const { db, groups, account } = session;
    const group = byName(session, name);
    db.transaction(() => groups.update(group.id, groupChanges(session, account.id, group, input(session, flags, flags.rename)), new Date().toISOString()))();
    return summary(session, byName(session, group.id));
  });
}

export function removeGroup(target: GroupTarget, name: string): Promise<GroupSummary> {
  return withGroups(target, (session) => {
    const group = byName(session, name);
    const before = summary(session, group);
    session.groups.remove(group.id);
    return before;
  });
}

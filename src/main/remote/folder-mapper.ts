/**
 * Local directories → options of the service's Folders field (DESIGN.md §3). A root maps to a remote
 * path (`/Brand`, or `/` for the top level); each subfolder maps to the child option with the same
 * name, created when missing. Looks up before it creates, and after a lost race (a sibling with the
 * same value appeared meanwhile) looks up again, so it never creates a duplicate option. Answers are
 * cached per root in the state database.
 */
import type { FieldOption } from '../../shared/api/resources.js';
import type { AssetApi } from '../api/index.js';
import { isApiError, unlessNotFound } from '../api/index.js';
import type { FoldersRepo } from '../db/folders-repo.js';
import { SyncError } from '../model/sync-error.js';

export interface FolderRoot {
  id: string;
  /** `/` or `/Brand/Logos`. */
  remotePath: string;
}

/** The folder names of a remote path (`/Brand/Logos` → ['Brand', 'Logos'], `/` → []). */
export function remoteSegments(remotePath: string): string[] {
  return remotePath.split('/').filter((segment) => segment !== '').map((segment) => segment.normalize('NFC'));
}

/** The directory of a relPath ('' at the root). */
export function relDirOf(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash < 0 ? '' : relPath.slice(0, slash);
}

/** The full remote path of a file, as upload items carry it (`/Brand/Logos/logo.png`). */
export function remoteFilePath(root: FolderRoot, relPath: string): string {
  return `/${[...remoteSegments(root.remotePath), ...relPath.split('/')].join('/')}`;
}

/**
 * The full remote path a new version of the synced file at `relPath` goes up under: in the file's
 * folder, under the asset's name on the service (`serviceName`) where known. An upload item's name
 * renames the asset (API.md §4), and the file's own name may be only how this disk holds the
 * service's: made safe, or numbered apart from a namesake (`logo (2).png`). That number is this
 * disk's alone and never goes up as the asset's name: sent, it would become everyone's, and each
 * client would number it again once another asset took that name. A name the user gives a file goes
 * up by its move (`PATCH filename`), never by a version.
 */
export function versionFilePath(root: FolderRoot, relPath: string, serviceName: string | undefined): string {
  if (serviceName === undefined || serviceName === '' || serviceName.includes('/')) return remoteFilePath(root, relPath);
  const dir = relDirOf(relPath);
  return remoteFilePath(root, dir === '' ? serviceName : `${dir}/${serviceName}`);
}

export class FolderMapper {
  private foldersField: Promise<string> | undefined;
  /** One lookup at a time per directory, so parallel uploads into a new folder create it once. */
  private readonly inFlight = new Map<string, Promise<string | null>>();

  constructor(
    private readonly api: AssetApi,
    private readonly folders: FoldersRepo,
  ) {}

  fieldId(): Promise<string> {
    this.foldersField ??= this.api.foldersFieldId().catch((error: unknown) => {
      this.foldersField = undefined;
      throw error;
    });
    return this.foldersField;
  }

  /** The option a local directory maps to; null for the top level of the Folders field. */
  async optionFor(root: FolderRoot, relDir: string): Promise<string | null> {
    const known = this.knownOption(root, relDir);
    if (known !== undefined) return known;
    const key = `${root.id}\n${relDir}`;
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.resolve(root, relDir).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The option of a directory if it is known already (no lookup): null for the top level. */
  knownOption(root: FolderRoot, relDir: string): string | null | undefined {
    return this.folders.optionOf(root.id, relDir);
  }

  /**
   * The option a directory's path names on the service now, read by name segment by segment past the
   * cache, which may be behind (a folder renamed elsewhere and not yet listed here); undefined when a
   * folder on the way is missing. Creates nothing; the cache learns what it finds, so the file's
   * upload is filed there, not also under the option the cache had (in two folders).
   */
  async namedNow(root: FolderRoot, relDir: string): Promise<string | null | undefined> {
    const fieldId = await this.fieldId();
    let option = await this.optionFor(root, '');
    for (const value of relDir === '' ? [] : relDir.split('/')) {
      const found = (await this.api.listFieldOptionChildren(fieldId, option)).find((candidate) => candidate.value.normalize('NFC') === value.normalize('NFC'));
      if (found === undefined) return undefined;
      option = found.id;
    }
    if (relDir !== '') this.folders.remember(root.id, relDir, option);
    return option;
  }

  /** The directory an option maps to in this root, if it is known. */
  dirOf(root: FolderRoot, optionId: string): string | undefined {
    return this.folders.dirOf(root.id, optionId);
  }

  /**
   * Whether an option lies in this root (its top level or under it), read past the cache when the
   * cache does not map it: a folder another client renamed or moved keeps its option's id, and is in
   * this root still though no directory here maps it yet (a folder this client cannot make, say,
   * because a file holds its name). A deleted option is in no root.
   */
  async inRoot(root: FolderRoot, optionId: string): Promise<boolean> {
    if (this.dirOf(root, optionId) !== undefined) return true;
    const top = await this.optionFor(root, '');
    // A root at the field's top level holds every option of the field.
    if (top === null) return true;
    // A deleted option is in no root.
    for (let option: FieldOption | null = (await unlessNotFound(this.api.getFieldOption(optionId))) ?? null; option !== null; option = option.parent) if (option.id === top) return true;
    return false;
  }

  /** Records the option a directory maps to now (after this client renamed the option for it). */
  remember(root: FolderRoot, relDir: string, optionId: string): void {
    this.folders.remember(root.id, relDir, optionId);
  }

  /** Forgets cached options under a directory (after a rename, or an option that vanished). */
  forget(root: FolderRoot, relDir: string): void {
    this.folders.forget(root.id, relDir);
  }

  /**
   * The option a remote path names now (null: the top level), read by name; with `create`, each folder
   * missing on the way is made, otherwise undefined when one is missing. The cache is neither read nor
   * written: the path may belong to no root yet.
   */
  async optionAtPath(remotePath: string, create: boolean): Promise<string | null | undefined> {
    const fieldId = await this.fieldId();
    let option: string | null = null;
    for (const value of remoteSegments(remotePath)) {
      if (create) {
        option = await this.child(fieldId, option, value);
        continue;
      }
      const found: FieldOption | undefined = (await this.api.listFieldOptionChildren(fieldId, option)).find((candidate) => candidate.value.normalize('NFC') === value);
      if (found === undefined) return undefined;
      option = found.id;
    }
    return option;
  }

  private async resolve(root: FolderRoot, relDir: string): Promise<string | null> {
    const fieldId = await this.fieldId();
    if (relDir === '') {
      let parent: string | null = null;
      for (const value of remoteSegments(root.remotePath)) parent = await this.child(fieldId, parent, value);
      this.folders.remember(root.id, '', parent);
      return parent;
    }
    const slash = relDir.lastIndexOf('/');
    const parent = await this.optionFor(root, slash < 0 ? '' : relDir.slice(0, slash));
    const option = await this.child(fieldId, parent, relDir.slice(slash + 1));
    this.folders.remember(root.id, relDir, option);
    return option;
  }

  /** The child option with this value, created when missing. */
  private async child(fieldId: string, parentId: string | null, value: string): Promise<string> {
    const find = async (): Promise<FieldOption | undefined> =>
      (await this.api.listFieldOptionChildren(fieldId, parentId)).find((option) => option.value.normalize('NFC') === value);
    const existing = await find();
    if (existing !== undefined) return existing.id;
    const outcome = await this.api.createFieldOptions([{ batchItemId: 'folder', fieldId, value, parentId }]);
    const created = outcome.successes.folder;
    if (created !== undefined) return created.id;
    const failure = outcome.failures.folder;
    // Somebody created it between our lookup and our create: use theirs.
    if (failure === undefined || (isApiError(failure) && failure.code === 'FIELD_OPTION_CONFLICT')) {
      const raced = await find();
      if (raced !== undefined) return raced.id;
    }
    throw new SyncError('FOLDER_UNAVAILABLE', `Cannot create the folder "${value}" on the service: ${failure?.message ?? 'no answer'}.`, { cause: failure });
  }
}

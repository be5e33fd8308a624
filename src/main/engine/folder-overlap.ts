/**
 * Two synced folders never overlap, on disk or in the service. A local file inside two synced folders,
 * or a folder of the service synced by two, is held twice: its conflicts and held deletions appear
 * twice, and confirming a deletion in one folder is undone by the other restoring it. So a folder whose
 * local path is equal to, inside or around another synced folder's, or whose service folder is equal to,
 * inside or around another's (`/` holds everything), is refused with the reason and a way out.
 * Pure: the engine hands in real paths (symlinks resolved) and whether each disk folds case; existing
 * overlaps in a state keep working, only a new one is refused.
 */
import { join } from 'node:path';

/** A synced folder as the rule compares it. */
export interface FolderPlace {
  /** The local folder as the user knows it (shown in messages). */
  path: string;
  /** Its real path (symlinks resolved), compared on disk. */
  realPath: string;
  /** `/` or `/Brand/Logos`, NFC, no trailing slash. */
  remotePath: string;
  /** Whether its disk tells names apart only by more than case (case-probe.ts); case-folded when so. */
  foldsCase?: boolean;
}

/** How the candidate's path stands to the other folder's: the same, inside it, or holding it. */
export type Relation = 'same' | 'inside' | 'contains';

export interface Overlap {
  side: 'disk' | 'service';
  relation: Relation;
  other: FolderPlace;
}

/** How two paths relate, segment by segment (`/Design` is not inside `/Designs`); undefined when apart. */
export function pathRelation(candidate: string, other: string, separator: string): Relation | undefined {
  const trim = (path: string): string => (path.length > 1 && path.endsWith(separator) ? path.slice(0, -separator.length) : path);
  const a = trim(candidate);
  const b = trim(other);
  if (a === b) return 'same';
  const within = (inner: string, outer: string): boolean => inner.startsWith(outer.endsWith(separator) ? outer : `${outer}${separator}`);
  if (within(a, b)) return 'inside';
  if (within(b, a)) return 'contains';
  return undefined;
}

/** How two local folders relate on disk; case-folded where either disk folds case. */
export function diskRelation(candidate: FolderPlace, other: FolderPlace, separator: string): Relation | undefined {
  const folds = candidate.foldsCase === true || other.foldsCase === true;
  const spelled = (path: string): string => (folds ? path.normalize('NFC').toLowerCase() : path);
  return pathRelation(spelled(candidate.realPath), spelled(other.realPath), separator);
}

/** How two service folders relate; `/` holds every other one. */
export function serviceRelation(candidate: string, other: string): Relation | undefined {
  return pathRelation(candidate.normalize('NFC'), other.normalize('NFC'), '/');
}

/**
 * Which sides a change is checked on: a new folder both; a folder that only changes its place in the
 * service keeps its place on disk, and one moved on disk keeps its place in the service.
 */
export type OverlapCheck = 'both' | 'disk' | 'service';

/** The first synced folder the candidate would overlap, on disk or in the service. */
export function findOverlap(candidate: FolderPlace, others: readonly FolderPlace[], options: { separator: string; check?: OverlapCheck }): Overlap | undefined {
  const check = options.check ?? 'both';
  if (check !== 'service') {
    for (const other of others) {
      const relation = diskRelation(candidate, other, options.separator);
      if (relation !== undefined) return { side: 'disk', relation, other };
    }
  }
  if (check === 'disk') return undefined;
  for (const other of others) {
    const relation = serviceRelation(candidate.remotePath, other.remotePath);
    if (relation !== undefined) return { side: 'service', relation, other };
  }
  return undefined;
}

const serviceFolder = (remotePath: string): string => (remotePath === '/' ? 'the whole service (/)' : remotePath);

/** Why the candidate is refused, and what to do instead, in the words of someone choosing folders. */
export function overlapMessage(candidate: FolderPlace, overlap: Overlap): string {
  const { other } = overlap;
  const stop = `or first stop syncing ${other.path}`;
  if (overlap.side === 'disk') {
    switch (overlap.relation) {
      case 'same':
        return `${candidate.path} is already synced (as ${other.path}) with ${serviceFolder(other.remotePath)}. To send it elsewhere, change that folder's place in the service instead.`;
      case 'inside':
        return `${candidate.path} is inside ${other.path}, which is already synced with ${serviceFolder(other.remotePath)}, so its files already sync. Choose a folder outside ${other.path}, ${stop}.`;
      case 'contains':
        return `${candidate.path} holds ${other.path}, which is already synced with ${serviceFolder(other.remotePath)}. Choose a folder that does not hold it (a subfolder of ${candidate.path} beside it), ${stop}.`;
    }
  }
  switch (overlap.relation) {
    case 'same':
      return `${candidate.remotePath} in the service is already synced by ${other.path}. Choose another folder in the service, or use ${other.path}.`;
    case 'inside': {
      const already = join(other.path, ...candidate.remotePath.slice(other.remotePath === '/' ? 1 : other.remotePath.length + 1).split('/'));
      return `${candidate.remotePath} in the service is already synced by ${other.path}, which syncs ${serviceFolder(other.remotePath)}: its files are in ${already}. Use that folder, or first narrow ${other.path} to a folder in the service that does not hold ${candidate.remotePath}.`;
    }
    case 'contains':
      return `${candidate.remotePath === '/' ? 'The whole service (/)' : `${candidate.remotePath} in the service`} holds ${other.remotePath}, which ${other.path} already syncs. Choose a folder in the service that does not hold ${other.remotePath}, ${stop}.`;
  }
}

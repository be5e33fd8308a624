/**
 * The node tree behind MemoryFileSystem: inodes, modes, mtimes, symlinks and POSIX path resolution
 * (intermediate symlinks followed, `..`, ELOOP, ENOTDIR, EACCES on untraversable directories).
 * It acts as a non-root user owning every node, so permission bits are enforced (the tests here run
 * as root, where chmod 000 would not stop a real read). Paths are POSIX: the twin runs the tests.
 */
import { NameMap, type NameMode } from './name-map.js';

export interface NodeBase {
  ino: number;
  mode: number;
  mtimeMs: number;
}
export interface FileNode extends NodeBase {
  kind: 'file';
  data: Uint8Array;
}
export interface DirectoryNode extends NodeBase {
  kind: 'directory';
  entries: NameMap<MemoryNode>;
  parent: DirectoryNode | undefined;
}
export interface SymlinkNode extends NodeBase {
  kind: 'symlink';
  target: string;
}
/** A FIFO, socket or device: something that is neither file, directory nor symlink. */
export interface OtherNode extends NodeBase {
  kind: 'other';
}
export type MemoryNode = FileNode | DirectoryNode | SymlinkNode | OtherNode;

/** An error shaped like Node's: `code`, `syscall`, `path`, and the same message format. */
export class MemoryFsError extends Error {
  override readonly name = 'MemoryFsError';
  constructor(
    readonly code: string,
    readonly syscall: string,
    readonly path: string,
  ) {
    // Without a stack, as node's own fs errors come (they are made in libuv's callback): capturing one
    // cost the simulation ~2% of a seed's CPU (an ENOENT is an everyday answer of a look at a path).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code}: ${MESSAGES[code] ?? 'error'}, ${syscall} '${path}'`);
    Error.stackTraceLimit = limit;
  }
}

const MESSAGES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  EACCES: 'permission denied',
  EEXIST: 'file already exists',
  ELOOP: 'too many symbolic links encountered',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  EIO: 'i/o error',
};

const MAX_SYMLINK_HOPS = 40;

/** Where a path leads: the directory holding the last name, the name, and the node if it exists. */
export interface Located {
  dir: DirectoryNode;
  name: string;
  node: MemoryNode | undefined;
  /** The canonical path of `dir` (symlinks resolved), for realpath. */
  dirPath: string;
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

export const canTraverse = (dir: DirectoryNode): boolean => (dir.mode & 0o100) !== 0;
export const canRead = (node: MemoryNode): boolean => (node.mode & 0o400) !== 0;
export const canWrite = (node: MemoryNode): boolean => (node.mode & 0o200) !== 0;

export class MemoryTree {
  private nextIno = 2;
  readonly root: DirectoryNode;

  constructor(
    private readonly now: () => number,
    private readonly names: NameMode = 'exact',
  ) {
    this.root = { kind: 'directory', ino: 1, mode: 0o755, mtimeMs: now(), entries: new NameMap(names), parent: undefined };
  }

  newFile(data: Uint8Array, mode = 0o644): FileNode {
    return { kind: 'file', ino: this.nextIno++, mode, mtimeMs: this.now(), data };
  }
  newDirectory(parent: DirectoryNode, mode = 0o755): DirectoryNode {
    return { kind: 'directory', ino: this.nextIno++, mode, mtimeMs: this.now(), entries: new NameMap(this.names), parent };
  }
  newSymlink(target: string): SymlinkNode {
    return { kind: 'symlink', ino: this.nextIno++, mode: 0o777, mtimeMs: this.now(), target };
  }
  newOther(): OtherNode {
    return { kind: 'other', ino: this.nextIno++, mode: 0o644, mtimeMs: this.now() };
  }

  /** Resolves `path`; intermediate symlinks are always followed, the final one only when asked. */
  locate(path: string, followFinal: boolean, syscall: string): Located {
    if (!path.startsWith('/') || path.includes('\0')) throw new MemoryFsError(path.includes('\0') ? 'EINVAL' : 'ENOENT', syscall, path);
    const queue = splitPath(path);
    if (queue.length === 0) return { dir: this.root, name: '', node: this.root, dirPath: '/' };
    let dir = this.root;
    let dirSegments: string[] = [];
    let hops = 0;
    for (;;) {
      const name = queue.shift();
      if (name === undefined) return { dir: dir.parent ?? this.root, name: dirSegments.at(-1) ?? '', node: dir, dirPath: `/${dirSegments.slice(0, -1).join('/')}` };
      if (!canTraverse(dir)) throw new MemoryFsError('EACCES', syscall, path);
      if (name === '.') continue;
      if (name === '..') {
        dir = dir.parent ?? this.root;
        dirSegments = dirSegments.slice(0, -1);
        continue;
      }
      const node = dir.entries.get(name);
      const last = queue.length === 0;
      if (node?.kind === 'symlink' && (!last || followFinal)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new MemoryFsError('ELOOP', syscall, path);
        if (node.target.startsWith('/')) {
          dir = this.root;
          dirSegments = [];
        }
        queue.unshift(...splitPath(node.target));
        continue;
      }
      if (last) return { dir, name, node, dirPath: `/${dirSegments.join('/')}` };
      if (node === undefined) throw new MemoryFsError('ENOENT', syscall, path);
      if (node.kind !== 'directory') throw new MemoryFsError('ENOTDIR', syscall, path);
      dir = node;
      dirSegments = [...dirSegments, name];
    }
  }

  /** The node at `path`, or ENOENT. */
  existing(path: string, followFinal: boolean, syscall: string): MemoryNode {
    const { node } = this.locate(path, followFinal, syscall);
    if (node === undefined) throw new MemoryFsError('ENOENT', syscall, path);
    return node;
  }

  /** The directory `path` names, or ENOENT/ENOTDIR. */
  directory(path: string, syscall: string): DirectoryNode {
    const node = this.existing(path, true, syscall);
    if (node.kind !== 'directory') throw new MemoryFsError('ENOTDIR', syscall, path);
    return node;
  }

  /** Checks that an entry may be added to or removed from `dir`. */
  assertWritable(dir: DirectoryNode, syscall: string, path: string): void {
    if (!canWrite(dir) || !canTraverse(dir)) throw new MemoryFsError('EACCES', syscall, path);
  }
}

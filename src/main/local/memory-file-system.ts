/**
 * The in-memory twin of NodeFileSystem (STYLE.md): deterministic, no real I/O, used by unit tests and
 * the simulation. Supports inodes, mtimes from an injected clock, symlinks (intermediate ones followed,
 * final ones only by stat/realpath), FIFOs, permission bits (EACCES) and injected faults. Directory
 * listings are sorted so runs are reproducible. Changes are announced to `onChange` listeners, which
 * the memory watcher turns into hints. Test-setup helpers are synchronous and create missing parents.
 */
import type { DirEntry, FileStat, FileSystem, ReadHandle, StatEntry, WriteHandle } from './file-system.js';
import { errnoCode } from './local-error.js';
import type { NameMode } from './name-map.js';
import { MemoryFsError, MemoryTree, canRead, canTraverse, canWrite, splitPath, type DirectoryNode, type FileNode, type MemoryNode } from './memory-tree.js';

export interface MemoryFileSystemOptions {
  /** Source of mtimes (a ManualClock in the simulation); defaults to Date.now. */
  clock?: { now(): number };
  /** The device number every node reports. */
  dev?: number;
  /** How names compare (default `exact`, like ext4): see name-map.ts. */
  names?: NameMode;
}

const encoder = new TextEncoder();
const toBytes = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data);

export class MemoryFileSystem implements FileSystem {
  private readonly tree: MemoryTree;
  private readonly now: () => number;
  private readonly dev: number;
  private readonly faults = new Map<string, string>();
  private readonly listeners = new Set<(path: string) => void>();

  constructor(options: MemoryFileSystemOptions = {}) {
    const clock = options.clock ?? { now: () => Date.now() };
    this.now = () => clock.now();
    this.dev = options.dev ?? 1;
    this.tree = new MemoryTree(this.now, options.names);
  }

  // ── FileSystem ────────────────────────────────────────────────────────────────────────────────────

  async lstat(path: string): Promise<FileStat> {
    this.fault(path, 'lstat');
    return this.toStat(this.tree.existing(path, false, 'lstat'));
  }
  async lstatOrMissing(path: string): Promise<FileStat | undefined> {
    try {
      return await this.lstat(path);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }
  async stat(path: string): Promise<FileStat> {
    this.fault(path, 'stat');
    return this.toStat(this.tree.existing(path, true, 'stat'));
  }
  async readdir(path: string): Promise<DirEntry[]> {
    return this.listing(path).map(([name, node]) => ({ name, kind: node.kind }));
  }
  async readdirStats(path: string): Promise<StatEntry[]> {
    const traversable = canTraverse(this.tree.directory(path, 'scandir'));
    return this.listing(path).map(([name, node]): StatEntry => {
      const code = traversable ? this.faults.get(path === '/' ? `/${name}` : `${path}/${name}`) : 'EACCES';
      return code === undefined ? { name, stat: this.toStat(node) } : { name, error: code };
    });
  }
  async realpath(path: string): Promise<string> {
    this.fault(path, 'realpath');
    const located = this.tree.locate(path, true, 'realpath');
    if (located.node === undefined) throw new MemoryFsError('ENOENT', 'realpath', path);
    if (located.node === this.tree.root) return '/';
    return `${located.dirPath === '/' ? '' : located.dirPath}/${located.name}`;
  }
  async openRead(path: string): Promise<ReadHandle> {
    this.fault(path, 'open');
    const node = this.tree.existing(path, false, 'open');
    if (node.kind === 'symlink') throw new MemoryFsError('ELOOP', 'open', path);
    if (!canRead(node)) throw new MemoryFsError('EACCES', 'open', path);
    const stat = (): FileStat => this.toStat(node);
    return {
      stat: async () => stat(),
      read: async (buffer, offset, length, position) => {
        if (node.kind === 'directory') throw new MemoryFsError('EISDIR', 'read', path);
        if (node.kind !== 'file') return 0;
        const chunk = node.data.subarray(position, position + length);
        buffer.set(chunk, offset);
        return chunk.length;
      },
      close: async () => undefined,
    };
  }
  async readFile(path: string): Promise<Uint8Array> {
    this.fault(path, 'open');
    const node = this.tree.existing(path, true, 'open');
    if (node.kind === 'directory') throw new MemoryFsError('EISDIR', 'read', path);
    if (!canRead(node)) throw new MemoryFsError('EACCES', 'open', path);
    return node.kind === 'file' ? node.data.slice() : new Uint8Array();
  }
  async mkdirp(path: string): Promise<void> {
    this.fault(path, 'mkdir');
    this.mkdirpSync(path);
  }
  async openWrite(path: string, options: { exclusive: boolean }): Promise<WriteHandle> {
    this.fault(path, 'open');
    const { dir, name, node } = this.tree.locate(path, true, 'open');
    if (node !== undefined && options.exclusive) throw new MemoryFsError('EEXIST', 'open', path);
    if (node?.kind === 'directory') throw new MemoryFsError('EISDIR', 'open', path);
    let file: FileNode;
    if (node?.kind === 'file') {
      if (!canWrite(node)) throw new MemoryFsError('EACCES', 'open', path);
      file = node;
      file.data = new Uint8Array();
      file.mtimeMs = this.now();
    } else {
      this.tree.assertWritable(dir, 'open', path);
      file = this.tree.newFile(new Uint8Array());
      dir.entries.set(name, file);
    }
    this.changed(path);
    return {
      write: async (data) => {
        const grown = new Uint8Array(file.data.length + data.length);
        grown.set(file.data);
        grown.set(data, file.data.length);
        file.data = grown;
        file.mtimeMs = this.now();
        this.changed(path);
      },
      sync: async () => undefined,
      close: async () => undefined,
    };
  }
  async rename(from: string, to: string): Promise<void> {
    this.fault(from, 'rename');
    this.renameSync(from, to);
  }
  async utimes(path: string, _atimeMs: number, mtimeMs: number): Promise<void> {
    this.fault(path, 'utime');
    this.setMtime(path, mtimeMs);
  }
  async unlink(path: string): Promise<void> {
    this.fault(path, 'unlink');
    const { dir, node } = this.tree.locate(path, false, 'unlink');
    if (node === undefined) throw new MemoryFsError('ENOENT', 'unlink', path);
    if (node.kind === 'directory') throw new MemoryFsError('EISDIR', 'unlink', path);
    this.tree.assertWritable(dir, 'unlink', path);
    this.detach(path);
  }

  // ── Test and simulation helpers (synchronous) ───────────────────────────────────────────────────

  /** What is at `path` (a final symlink not followed), or undefined when nothing is. */
  kindOf(path: string): MemoryNode['kind'] | undefined {
    try {
      return this.tree.existing(path, false, 'lstat').kind;
    } catch {
      return undefined;
    }
  }
  /** A directory's entries, sorted by name, without faults (the simulation's checks read with it). */
  listSync(path: string): DirEntry[] {
    return this.listing(path).map(([name, node]) => ({ name, kind: node.kind }));
  }
  /** Creates or replaces a file (parents created), optionally with a given mtime and mode. */
  writeFile(path: string, data: string | Uint8Array, options: { mtimeMs?: number; mode?: number } = {}): void {
    const { dir, name } = this.parentOf(path);
    const node = this.tree.newFile(toBytes(data), options.mode);
    if (options.mtimeMs !== undefined) node.mtimeMs = options.mtimeMs;
    const existing = dir.entries.get(name);
    if (existing?.kind === 'file') node.ino = existing.ino; // rewriting in place keeps the inode
    dir.entries.set(name, node);
    this.changed(path);
  }
  /** Appends to a file in place (same inode), like a copy still in progress. */
  appendFile(path: string, data: string | Uint8Array): void {
    const node = this.tree.existing(path, true, 'open');
    if (node.kind !== 'file') throw new MemoryFsError('EISDIR', 'write', path);
    const bytes = toBytes(data);
    const grown = new Uint8Array(node.data.length + bytes.length);
    grown.set(node.data);
    grown.set(bytes, node.data.length);
    node.data = grown;
    node.mtimeMs = this.now();
    this.changed(path);
  }
  mkdirpSync(path: string, mode?: number): void {
    let dir = this.tree.root;
    let current = '';
    for (const name of splitPath(path)) {
      current += `/${name}`;
      const node = dir.entries.get(name);
      if (node === undefined) {
        this.tree.assertWritable(dir, 'mkdir', current);
        const created = this.tree.newDirectory(dir, mode);
        dir.entries.set(name, created);
        this.changed(current);
        dir = created;
      } else if (node.kind === 'directory') {
        dir = node;
      } else if (node.kind === 'symlink') {
        dir = this.tree.directory(current, 'mkdir');
      } else {
        throw new MemoryFsError('ENOTDIR', 'mkdir', current);
      }
    }
  }
  symlink(target: string, path: string): void {
    const { dir, name } = this.parentOf(path);
    if (dir.entries.has(name)) throw new MemoryFsError('EEXIST', 'symlink', path);
    dir.entries.set(name, this.tree.newSymlink(target));
    this.changed(path);
  }
  /** A FIFO (or any special file). */
  mkfifo(path: string): void {
    const { dir, name } = this.parentOf(path);
    dir.entries.set(name, this.tree.newOther());
    this.changed(path);
  }
  chmod(path: string, mode: number): void {
    this.tree.existing(path, true, 'chmod').mode = mode;
    this.changed(path);
  }
  setMtime(path: string, mtimeMs: number): void {
    this.tree.existing(path, true, 'utime').mtimeMs = mtimeMs;
    this.changed(path);
  }
  renameSync(from: string, to: string): void {
    const source = this.tree.locate(from, false, 'rename');
    if (source.node === undefined) throw new MemoryFsError('ENOENT', 'rename', from);
    const target = this.tree.locate(to, false, 'rename');
    this.tree.assertWritable(source.dir, 'rename', from);
    this.tree.assertWritable(target.dir, 'rename', to);
    const moving = source.node;
    const replaced = target.node;
    if (replaced === moving) {
      // A case-only rename on a case-insensitive disk: the same entry, newly spelled.
      if (source.dir === target.dir && source.name !== target.name) {
        source.dir.entries.delete(source.name);
        target.dir.entries.set(target.name, moving);
        this.changed(to);
      }
      return;
    }
    if (replaced?.kind === 'directory' && moving.kind !== 'directory') throw new MemoryFsError('EISDIR', 'rename', to);
    if (replaced !== undefined && replaced.kind !== 'directory' && moving.kind === 'directory') throw new MemoryFsError('ENOTDIR', 'rename', to);
    if (replaced?.kind === 'directory' && replaced.entries.size > 0) throw new MemoryFsError('ENOTEMPTY', 'rename', to);
    for (let dir: DirectoryNode | undefined = target.dir; dir !== undefined; dir = dir.parent) {
      if (dir === moving) throw new MemoryFsError('EINVAL', 'rename', to);
    }
    source.dir.entries.delete(source.name);
    target.dir.entries.set(target.name, moving);
    if (moving.kind === 'directory') moving.parent = target.dir;
    this.changed(from);
    this.changed(to);
  }
  /** rm -rf. */
  remove(path: string): void {
    const { node } = this.tree.locate(path, false, 'rm');
    if (node !== undefined) this.detach(path);
  }
  readText(path: string): string {
    const node = this.tree.existing(path, true, 'open');
    return node.kind === 'file' ? new TextDecoder().decode(node.data) : '';
  }
  /** Every operation on exactly `path` fails with `code` (EIO, EACCES, …) until cleared. */
  injectFault(path: string, code: string | undefined): void {
    if (code === undefined) this.faults.delete(path);
    else this.faults.set(path, code);
  }
  /** Called with the absolute path of every change; returns the unsubscribe function. */
  onChange(listener: (path: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────────

  private listing(path: string): [string, MemoryNode][] {
    this.fault(path, 'scandir');
    const dir = this.tree.directory(path, 'scandir');
    if (!canRead(dir)) throw new MemoryFsError('EACCES', 'scandir', path);
    return [...dir.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
  private parentOf(path: string): { dir: DirectoryNode; name: string } {
    const segments = splitPath(path);
    const name = segments.pop();
    if (name === undefined) throw new MemoryFsError('EEXIST', 'open', path);
    const parentPath = `/${segments.join('/')}`;
    this.mkdirpSync(parentPath);
    return { dir: this.tree.directory(parentPath, 'open'), name };
  }
  private detach(path: string): void {
    const { dir, name } = this.tree.locate(path, false, 'rm');
    dir.entries.delete(name);
    this.changed(path);
  }
  private toStat(node: MemoryNode): FileStat {
    const size = node.kind === 'file' ? node.data.length : node.kind === 'symlink' ? node.target.length : node.kind === 'directory' ? 4096 : 0;
    return { kind: node.kind, size, mtimeMs: node.mtimeMs, ino: node.ino, dev: this.dev, mode: node.mode };
  }
  private fault(path: string, syscall: string): void {
    const code = this.faults.get(path);
    if (code !== undefined) throw new MemoryFsError(code, syscall, path);
  }
  private changed(path: string): void {
    for (const listener of this.listeners) listener(path);
  }
}

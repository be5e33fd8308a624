/**
 * The engine's file system in the simulation: a MemoryFileSystem behind the fault layer. It fails
 * writes with ENOSPC and reads with EACCES by chance, dies at a crash (every call after it throws
 * SimCrash, so nothing reaches the disk after the process "died"), may crash between a temp file's
 * write and its rename, and records every write outside the places the engine may write (its root and
 * the trash) as a confinement breach.
 */
import type { DirEntry, FileStat, FileSystem, ReadHandle, StatEntry, WriteHandle } from '../src/main/local/file-system.js';
import { MemoryFsError } from '../src/main/local/memory-tree.js';
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import type { Faults } from './faults.js';

export class SimFileSystem implements FileSystem {
  readonly breaches: string[] = [];
  /** Hears each file the engine opens to read (hash-faults.ts: a user changes it while it is hashed). */
  onOpenRead: (path: string) => void = () => undefined;

  constructor(
    private readonly disk: MemoryFileSystem,
    private readonly faults: Faults,
    private readonly writable: readonly string[],
  ) {}

  /** Throws SimCrash when the engine is dead (or dies here): for the trash, which moves files itself. */
  crashCheck(where: string): void {
    this.alive(where);
  }

  private alive(where: string): void {
    this.faults.crashPoint(where);
  }

  private writing(path: string, syscall: string): void {
    this.alive(`${syscall} ${path}`);
    if (!this.writable.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) this.breaches.push(`${syscall} ${path}`);
  }

  async lstat(path: string): Promise<FileStat> {
    this.alive('lstat');
    return this.disk.lstat(path);
  }
  async lstatOrMissing(path: string): Promise<FileStat | undefined> {
    this.alive('lstat');
    return this.disk.lstatOrMissing(path);
  }
  async stat(path: string): Promise<FileStat> {
    this.alive('stat');
    return this.disk.stat(path);
  }
  async readdir(path: string): Promise<DirEntry[]> {
    this.alive('readdir');
    return this.disk.readdir(path);
  }
  async readdirStats(path: string): Promise<StatEntry[]> {
    this.alive('readdir');
    return this.disk.readdirStats(path);
  }
  async realpath(path: string): Promise<string> {
    this.alive('realpath');
    return this.disk.realpath(path);
  }
  async openRead(path: string): Promise<ReadHandle> {
    this.alive('open');
    if (this.faults.disk(`read ${path}`, ['EACCES']) !== undefined) throw new MemoryFsError('EACCES', 'open', path);
    const handle = await this.disk.openRead(path);
    this.onOpenRead(path);
    return handle;
  }
  async readFile(path: string): Promise<Uint8Array> {
    this.alive('readFile');
    return this.disk.readFile(path);
  }
  async mkdirp(path: string): Promise<void> {
    this.writing(path, 'mkdir');
    return this.disk.mkdirp(path);
  }
  async openWrite(path: string, options: { exclusive: boolean }): Promise<WriteHandle> {
    this.writing(path, 'open');
    if (this.faults.disk(`write ${path}`, ['ENOSPC']) !== undefined) throw new MemoryFsError('ENOSPC', 'open', path);
    const handle = await this.disk.openWrite(path, options);
    return {
      write: async (data) => {
        this.alive(`write ${path}`);
        if (this.faults.disk(`write ${path}`, ['ENOSPC']) !== undefined) throw new MemoryFsError('ENOSPC', 'write', path);
        await handle.write(data);
      },
      sync: async () => {
        this.alive(`fsync ${path}`);
        await handle.sync();
      },
      close: () => handle.close(),
    };
  }
  async rename(from: string, to: string): Promise<void> {
    this.writing(to, 'rename');
    this.writing(from, 'rename');
    return this.disk.rename(from, to);
  }
  async utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    this.writing(path, 'utime');
    return this.disk.utimes(path, atimeMs, mtimeMs);
  }
  async unlink(path: string): Promise<void> {
    this.writing(path, 'unlink');
    return this.disk.unlink(path);
  }
}

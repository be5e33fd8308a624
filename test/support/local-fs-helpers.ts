/** Helpers for the local side's tests: a FileSystem that counts reads, and a scan collected by kind. */
import type { FileSystem, ReadHandle, StatEntry } from '../../src/main/local/file-system.js';
import type { LocalObservation } from '../../src/main/local/observations.js';

/** Wraps a FileSystem and counts what it reads, so tests can prove a file was not read. */
export class CountingFileSystem implements FileSystem {
  opened: string[] = [];
  readSizes: number[] = [];
  listings = 0;
  /** Runs before a path is opened for reading (tests use it to swap the file after it was listed). */
  beforeOpen: ((path: string) => void) | undefined;
  /** Runs before each read of a path (tests use it to change a file mid-hash). */
  beforeRead: ((path: string, position: number) => void) | undefined;

  constructor(private readonly inner: FileSystem) {}

  lstat = (path: string) => this.inner.lstat(path);
  lstatOrMissing = (path: string) => this.inner.lstatOrMissing(path);
  stat = (path: string) => this.inner.stat(path);
  readdir = (path: string) => this.inner.readdir(path);
  readdirStats = (path: string): Promise<StatEntry[]> => {
    this.listings++;
    return this.inner.readdirStats(path);
  };
  realpath = (path: string) => this.inner.realpath(path);
  readFile = (path: string) => this.inner.readFile(path);
  mkdirp = (path: string) => this.inner.mkdirp(path);
  openWrite = (path: string, options: { exclusive: boolean }) => this.inner.openWrite(path, options);
  rename = (from: string, to: string) => this.inner.rename(from, to);
  utimes = (path: string, atimeMs: number, mtimeMs: number) => this.inner.utimes(path, atimeMs, mtimeMs);
  unlink = (path: string) => this.inner.unlink(path);

  async openRead(path: string): Promise<ReadHandle> {
    this.opened.push(path);
    this.beforeOpen?.(path);
    const handle = await this.inner.openRead(path);
    return {
      stat: () => handle.stat(),
      close: () => handle.close(),
      read: async (buffer, offset, length, position) => {
        this.beforeRead?.(path, position);
        this.readSizes.push(length);
        return handle.read(buffer, offset, length, position);
      },
    };
  }

  reset(): void {
    this.opened = [];
    this.readSizes = [];
    this.listings = 0;
  }
}

/** Observations of one scan, keyed by relPath (a path reported twice fails the test). */
export function collector(): { sink: (observation: LocalObservation) => void; byPath: Map<string, LocalObservation>; all: LocalObservation[] } {
  const byPath = new Map<string, LocalObservation>();
  const all: LocalObservation[] = [];
  return {
    byPath,
    all,
    sink: (observation) => {
      if (byPath.has(observation.relPath)) throw new Error(`${observation.relPath} reported twice`);
      byPath.set(observation.relPath, observation);
      all.push(observation);
    },
  };
}

/** `relPath → kind` (and reason for not-synced), sorted: a readable whole-scan assertion. */
export function summarise(observations: Iterable<LocalObservation>): Record<string, string> {
  const entries = [...observations].map((observation): [string, string] => [
    observation.relPath,
    observation.kind === 'not-synced' ? `not-synced:${observation.reason}` : observation.kind,
  ]);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

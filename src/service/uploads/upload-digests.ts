/**
 * Every digest of an open upload, fed while the bytes land: each part's MD5 (its ETag) and the whole
 * file's MD5 (AssetFile.checksum) and SHA-256 (the blob address). The hashing itself runs in the digest
 * pool's worker, which reads the bytes back from the file; this module decides what to feed when.
 *
 * - A part's digest follows the part's writes, batch by batch, and is finished as soon as its last
 *   byte is written, so the ETag is ready about when the bytes are synced.
 * - The file digest follows the contiguous prefix of the file: recorded parts, then the written bytes
 *   of the part arriving at the prefix's end. When that part's next batch starts exactly where the file
 *   digest stands, one read feeds both digests; otherwise the file digest catches up on its own, at most
 *   STEP bytes per request, one request at a time.
 * - Part 1 borrows the file digest's MD5 when both start together: it is the same MD5 up to part 1's
 *   end, so it is computed once (for a single-part upload, the whole-file MD5 costs nothing extra).
 * - An upload's file digest and part 1 live on its home worker; with several workers, part n goes to
 *   the n-th worker from there, so one upload's parts hash in parallel on machines with the cores.
 *
 * Must never: let a digest keep bytes that changed after it read them. `claimed` is how far the file
 * digest has been sent; a part that starts below it and is PUT again, or fails half-way, drops the file
 * digest, which then starts over from byte 0. The worker's answer to `finish` is the only proof that a
 * digest saw every byte: anything else (lost worker, restart, failed read) means hashing afresh.
 */
import { partRange, type PartRange } from '../../shared/api/part-layout.js';
import type { DigestPool } from './digest-pool.js';

/** The most bytes one catch-up request of a file digest hashes, so a part's batches never wait long behind it. */
const STEP = 8 << 20;

export interface DigestLayout {
  uploadId: string;
  file: string;
  size: number;
  partSize: number;
  partCount: number;
}

export interface FileDigest {
  md5: string;
  sha256: string;
}

/** Where a part stands: recorded, arriving with this many bytes written, or absent. */
export type PartProgress = 'recorded' | number | undefined;

/**
 * How far from `from` the file holds bytes that can be hashed in order: through recorded parts, into
 * an arriving part up to its written bytes, and never past a part that is not recorded yet.
 */
export function contiguousEnd(layout: Pick<DigestLayout, 'size' | 'partSize'>, from: number, progress: (partNumber: number) => PartProgress): number {
  let end = from;
  while (end < layout.size) {
    const range = partRange(layout.size, layout.partSize, Math.floor(end / layout.partSize) + 1);
    const state = progress(range.partNumber);
    if (state === undefined) break;
    if (state !== 'recorded') return Math.max(end, Math.min(range.end, range.start + state));
    end = range.end;
  }
  return end;
}

interface FileRun {
  /** The worker's name for this digest: a new one after every drop, so nothing stale mixes in. */
  key: string;
  worker: number;
  epoch: number;
  claimed: number;
  opened: boolean;
  stepping: boolean;
  broken: boolean;
}

interface PartRun {
  key: string;
  worker: number;
  range: PartRange;
  written: number;
  /** The part's MD5 once asked for (undefined inside: the worker could not give it). */
  md5: Promise<string | undefined> | undefined;
}

export class UploadDigests {
  private readonly files = new Map<string, FileRun>();
  private readonly parts = new Map<string, Map<number, PartRun>>();
  private generation = 0;
  private closed = false;

  constructor(
    private readonly pool: DigestPool,
    private readonly isRecorded: (uploadId: string, partNumber: number) => boolean,
  ) {}

  /** A part is about to be (re)written: opens its digest; a file digest that read its range is stale. */
  partStarting(layout: DigestLayout, partNumber: number): void {
    const range = partRange(layout.size, layout.partSize, partNumber);
    this.dropFileIfCovered(layout.uploadId, range.start);
    let md5From: string | undefined;
    if (range.start === 0) {
      const file = this.fileRun(layout.uploadId);
      if (file.claimed === 0 && !file.broken) {
        this.openFile(layout.uploadId, file);
        md5From = file.key;
      }
    }
    const worker = (this.home(layout.uploadId) + partNumber - 1) % this.pool.size;
    const part: PartRun = { key: this.newKey(layout.uploadId), worker, range, written: 0, md5: undefined };
    this.pool.open(worker, part.key, range.start, { sha256: false, ...(md5From === undefined ? {} : { md5From }) }).catch(() => undefined);
    let parts = this.parts.get(layout.uploadId);
    if (parts === undefined) {
      parts = new Map();
      this.parts.set(layout.uploadId, parts);
    }
    parts.set(partNumber, part);
  }

  /** The first `bytes` bytes of the part are in the file. */
  partWritten(layout: DigestLayout, partNumber: number, bytes: number): void {
    const part = this.parts.get(layout.uploadId)?.get(partNumber);
    if (part === undefined || bytes <= part.written) return;
    const from = part.range.start + part.written;
    const to = part.range.start + bytes;
    part.written = bytes;
    const file = this.files.get(layout.uploadId);
    const together = file !== undefined && file.worker === part.worker && file.opened && !file.broken && file.epoch === this.pool.epoch && file.claimed === from;
    const feeding = this.pool.feed(part.worker, layout.file, from, to, together ? [part.key, file.key] : [part.key]);
    if (together) {
      file.claimed = to;
      this.watch(feeding, file, to);
    } else {
      feeding.catch(() => undefined);
    }
    if (to === part.range.end) part.md5 = this.finishPart(part);
    this.pump(layout);
  }

  /** The MD5 hex of a fully written part; hashes the part from the file alone if the running digest failed. */
  async partMd5(layout: DigestLayout, partNumber: number): Promise<string> {
    const part = this.parts.get(layout.uploadId)?.get(partNumber);
    if (part === undefined) throw new Error(`part ${partNumber} of ${layout.uploadId} is not arriving`);
    part.md5 ??= this.finishPart(part);
    const md5 = await part.md5;
    if (md5 !== undefined) return md5;
    const key = this.newKey(layout.uploadId);
    const { start, end } = part.range;
    await this.pool.open(part.worker, key, start, { sha256: false });
    await this.pool.feed(part.worker, layout.file, start, end, [key]);
    const answer = await this.pool.finish(part.worker, key);
    if (answer.md5 === undefined || answer.offset !== end) throw new Error(`could not hash part ${partNumber} of ${layout.uploadId}: ${answer.error ?? 'incomplete'}`);
    return answer.md5;
  }

  /** The part is done arriving: recorded, or failed (then its bytes are not to be trusted). */
  partEnded(layout: DigestLayout, partNumber: number, recorded: boolean): void {
    const parts = this.parts.get(layout.uploadId);
    const part = parts?.get(partNumber);
    parts?.delete(partNumber);
    if (parts?.size === 0) this.parts.delete(layout.uploadId);
    if (part?.md5 === undefined && part !== undefined) this.pool.drop(part.worker, part.key).catch(() => undefined);
    if (!recorded) this.dropFileIfCovered(layout.uploadId, partRange(layout.size, layout.partSize, partNumber).start);
    this.pump(layout);
  }

  /** The digest of the whole `layout.size`-byte file (no part may be arriving). */
  async finish(layout: DigestLayout): Promise<FileDigest> {
    const file = this.files.get(layout.uploadId);
    this.files.delete(layout.uploadId);
    if (file?.opened === true && !file.broken && file.epoch === this.pool.epoch) {
      const digest = await this.complete(layout, file, file.claimed).catch(() => undefined);
      if (digest !== undefined) return digest;
    }
    const fresh = this.fileRun(layout.uploadId);
    this.files.delete(layout.uploadId);
    await this.pool.open(fresh.worker, fresh.key, 0, { sha256: true });
    const digest = await this.complete(layout, fresh, 0);
    if (digest === undefined) throw new Error(`could not digest upload ${layout.uploadId}`);
    return digest;
  }

  /** Forgets every digest of an upload (discarded). */
  drop(uploadId: string): void {
    this.dropFile(uploadId);
    for (const part of this.parts.get(uploadId)?.values() ?? []) this.pool.drop(part.worker, part.key).catch(() => undefined);
    this.parts.delete(uploadId);
  }

  /** Stops feeding file digests (the service is closing; its database is about to go). */
  close(): void {
    this.closed = true;
    this.files.clear();
    this.parts.clear();
  }

  /** Sends the file digest the next slice of contiguous bytes it has not been sent yet, one slice at a time. */
  private pump(layout: DigestLayout): void {
    if (this.closed) return;
    const file = this.current(layout.uploadId);
    if (file !== undefined && (file.stepping || file.broken)) return;
    const claimed = file?.claimed ?? 0;
    const parts = this.parts.get(layout.uploadId);
    const end = contiguousEnd(layout, claimed, (partNumber) => parts?.get(partNumber)?.written ?? (this.isRecorded(layout.uploadId, partNumber) ? 'recorded' : undefined));
    if (end <= claimed) return;
    const run = file ?? this.fileRun(layout.uploadId);
    this.openFile(layout.uploadId, run);
    const to = Math.min(end, claimed + STEP);
    run.claimed = to;
    run.stepping = true;
    const feeding = this.pool.feed(run.worker, layout.file, claimed, to, [run.key]);
    this.watch(feeding, run, to);
    void feeding
      .catch(() => undefined)
      .then(() => {
        run.stepping = false;
        if (this.files.get(layout.uploadId) === run) this.pump(layout);
      });
  }

  /** Feeds [from, size) to the file digest and finishes it; undefined when it did not see every byte. */
  private async complete(layout: DigestLayout, file: FileRun, from: number): Promise<FileDigest | undefined> {
    // Sent back to back: the worker handles messages in order.
    const feeding = from < layout.size ? this.pool.feed(file.worker, layout.file, from, layout.size, [file.key]) : undefined;
    const [answer] = await Promise.all([this.pool.finish(file.worker, file.key), feeding]);
    if (answer.offset !== layout.size || answer.md5 === undefined || answer.sha256 === undefined) return undefined;
    return { md5: answer.md5, sha256: answer.sha256 };
  }

  private finishPart(part: PartRun): Promise<string | undefined> {
    return this.pool.finish(part.worker, part.key).then(
      (answer) => answer.md5,
      () => undefined,
    );
  }

  /** Marks the file digest broken when a feed it was part of did not land. */
  private watch(feeding: Promise<{ offset: number }>, file: FileRun, to: number): void {
    feeding.then(
      (answer) => {
        if (answer.offset !== to) file.broken = true;
      },
      () => {
        file.broken = true;
      },
    );
  }

  /** The upload's file digest, unless a lost worker took it along (then it starts over, not gives up). */
  private current(uploadId: string): FileRun | undefined {
    const file = this.files.get(uploadId);
    if (file === undefined || file.epoch === this.pool.epoch) return file;
    this.files.delete(uploadId);
    return undefined;
  }

  private fileRun(uploadId: string): FileRun {
    let file = this.current(uploadId);
    if (file === undefined) {
      file = { key: this.newKey(uploadId), worker: this.home(uploadId), epoch: this.pool.epoch, claimed: 0, opened: false, stepping: false, broken: false };
      this.files.set(uploadId, file);
    }
    return file;
  }

  private openFile(uploadId: string, file: FileRun): void {
    if (file.opened) return;
    file.opened = true;
    this.watch(this.pool.open(file.worker, file.key, 0, { sha256: true }), file, 0);
  }

  private dropFileIfCovered(uploadId: string, start: number): void {
    const file = this.files.get(uploadId);
    if (file !== undefined && start < file.claimed) this.dropFile(uploadId);
  }

  private dropFile(uploadId: string): void {
    const file = this.files.get(uploadId);
    if (file === undefined) return;
    this.files.delete(uploadId);
    if (file.opened) this.pool.drop(file.worker, file.key).catch(() => undefined);
  }

  /** The worker that keeps an upload's file digest. */
  private home(uploadId: string): number {
    let hash = 0;
    for (let index = 0; index < uploadId.length; index++) hash = (hash * 31 + uploadId.charCodeAt(index)) | 0;
    return Math.abs(hash) % this.pool.size;
  }

  private newKey(uploadId: string): string {
    return `${uploadId}:${++this.generation}`;
  }
}

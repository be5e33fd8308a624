/**
 * Every digest of an open upload, fed while the bytes land: each part's MD5 (its ETag) and the whole
 * file's MD5 (AssetFile.checksum) and SHA-256 (the blob address). Small parts are hashed here, large
 * ones by the digest pool's workers, which read the bytes back from the file; this module decides what
 * to feed where and when.
 *
 * - A part's digest follows the part's writes, batch by batch, and is finished as soon as its last
 *   byte is written, so the ETag is ready about when the bytes are synced.
 * - The file digest follows the contiguous prefix of the file: recorded parts, then the written bytes
 *   of the part arriving at the prefix's end. When that part's next batch starts exactly where the file
 *   digest stands, one read feeds both digests; otherwise the file digest catches up on its own, at most
 *   STEP bytes per request, one request at a time.
 * - Part 1 borrows the file digest's MD5 when both start together: it is the same MD5 up to part 1's
 *   end, so it is computed once (for a single-part upload, the whole-file MD5 costs nothing extra).
 * - The file digest is what completion waits for: it can only follow the contiguous prefix, so with
 *   parts arriving side by side it trails the last part. With several workers it runs in two lanes
 *   that follow the prefix independently — the file MD5 on the upload's home worker (with part 1,
 *   which borrows it), the file SHA-256 on the next one — and the other parts go round the workers
 *   other than home, so the longest chain (MD5 is the slower hash) has a worker to itself.
 * - A small part (up to INLINE_PART_BYTES) is hashed on the event loop from its chunks as they arrive:
 *   for a few KiB, the worker's round trips (open, feed, finish, and its own open and read of the file)
 *   cost far more than the hashing. When it is the upload's only part, its MD5 is the file's and a
 *   SHA-256 is taken beside it, so the file digest is known once the part is recorded and completion
 *   asks the worker for nothing. Large parts, and the file digest of multipart uploads, stay on the
 *   worker, where hashing does not hold up the event loop.
 *
 * Must never: let a digest keep bytes that changed after it read them. `claimed` is how far a file
 * digest lane has been sent; a part that starts below it and is PUT again, or fails half-way, drops the
 * lane, which then starts over from byte 0. The worker's answer to `finish` is the only proof that a
 * digest saw every byte: anything else (lost worker, restart, failed read) means hashing afresh. An
 * inline digest counts only when it took exactly the part's bytes and all of them were written; a file
 * digest known from one is dropped as soon as its part is PUT again, and is used at most once.
 */
import { createHash, type Hash } from 'node:crypto';
import { partRange, type PartRange } from '../../shared/api/part-layout.js';
import type { DigestPool } from './digest-pool.js';

/** Parts up to this size are hashed inline, on the event loop (a few ms of MD5 at most per part). */
export const INLINE_PART_BYTES = 1 << 20;

/**
 * A one-part upload up to this size keeps its bytes from the PUT until completion, which sniffs its type
 * from them instead of reading the file back (describe-file.ts reads files this small whole anyway).
 */
export const KEEP_FILE_BYTES = 64 * 1024;

/** At most this many bytes are kept across all open uploads; beyond it, completion reads the file. */
const KEEP_TOTAL_BYTES = 32 << 20;

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

/** Which of the file's digests a lane computes. */
interface Lane {
  md5: boolean;
  sha256: boolean;
}

interface FileRun {
  lane: Lane;
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
  /** Set for a part hashed on the event loop instead of by the worker. */
  inline: InlineDigest | undefined;
}

/** A small part's digest, fed with its chunks as they arrive. */
interface InlineDigest {
  md5: Hash;
  /** Only when the part is the whole file. */
  sha256: Hash | undefined;
  /** The chunks themselves, when the part is the whole file and small enough to keep (KEEP_FILE_BYTES). */
  chunks: Buffer[] | undefined;
  received: number;
  /** Set once the part is complete. */
  result: { md5: string; sha256: string | undefined } | undefined;
}

export class UploadDigests {
  /** Each upload's file digest lanes, in the order of `lanes` (a lane absent: not started, or dropped). */
  private readonly files = new Map<string, (FileRun | undefined)[]>();
  private readonly parts = new Map<string, Map<number, PartRun>>();
  /**
   * File digests of one-part uploads, taken inline while the part arrived and kept once it is recorded,
   * with the file's bytes when it is small (`keptBytes` counts those).
   */
  private readonly known = new Map<string, { digest: FileDigest; bytes: Buffer | undefined }>();
  private keptBytes = 0;
  private generation = 0;
  private closed = false;

  /** `inlinePartBytes`: parts up to this size are hashed inline (tests lower it to drive the worker path). */
  constructor(
    private readonly pool: DigestPool,
    private readonly isRecorded: (uploadId: string, partNumber: number) => boolean,
    private readonly inlinePartBytes = INLINE_PART_BYTES,
  ) {}

  /**
   * A part is about to be (re)written: opens its digest; a file digest that read its range is stale.
   * `holding`: the caller holds the part's bytes itself (a small file kept inline), so a one-part
   * upload's chunks are not kept a second time.
   */
  partStarting(layout: DigestLayout, partNumber: number, holding = false): void {
    const range = partRange(layout.size, layout.partSize, partNumber);
    // The file changes: a digest known from an earlier PUT of the part no longer holds.
    this.forgetKnown(layout.uploadId);
    this.dropFileIfCovered(layout.uploadId, range.start);
    const worker = this.partWorker(layout.uploadId, partNumber);
    const part: PartRun = { key: this.newKey(layout.uploadId), worker, range, written: 0, md5: undefined, inline: undefined };
    if (range.end - range.start <= this.inlinePartBytes) {
      const whole = range.start === 0 && range.end === layout.size;
      const keep = whole && !holding && layout.size > 0 && layout.size <= KEEP_FILE_BYTES;
      part.inline = { md5: createHash('md5'), sha256: whole ? createHash('sha256') : undefined, chunks: keep ? [] : undefined, received: 0, result: undefined };
    } else {
      let md5From: string | undefined;
      if (range.start === 0) {
        const file = this.fileRun(layout.uploadId, 0);
        if (file.claimed === 0 && !file.broken) {
          this.openFile(file);
          md5From = file.key;
        }
      }
      this.pool.open(worker, part.key, range.start, { sha256: false, ...(md5From === undefined ? {} : { md5From }) }).catch(() => undefined);
    }
    let parts = this.parts.get(layout.uploadId);
    if (parts === undefined) {
      parts = new Map();
      this.parts.set(layout.uploadId, parts);
    }
    parts.set(partNumber, part);
  }

  /** A chunk of the part arrived (in order), before it is written: an inline digest takes it. */
  partReceived(layout: DigestLayout, partNumber: number, chunk: Buffer): void {
    const inline = this.parts.get(layout.uploadId)?.get(partNumber)?.inline;
    if (inline === undefined) return;
    inline.md5.update(chunk);
    inline.sha256?.update(chunk);
    inline.chunks?.push(chunk);
    inline.received += chunk.length;
  }

  /** The first `bytes` bytes of the part are in the file. */
  partWritten(layout: DigestLayout, partNumber: number, bytes: number): void {
    const part = this.parts.get(layout.uploadId)?.get(partNumber);
    if (part === undefined || bytes <= part.written) return;
    if (part.inline !== undefined) {
      part.written = bytes;
      // The file digest of a multipart upload still reads the part back (the worker keeps it);
      // a one-part upload's file digest is the inline one.
      if (part.inline.sha256 === undefined) this.pump(layout);
      return;
    }
    const from = part.range.start + part.written;
    const to = part.range.start + bytes;
    part.written = bytes;
    // A lane on the part's worker standing exactly where this batch starts takes the same read.
    const file = this.files
      .get(layout.uploadId)
      ?.find((run) => run !== undefined && run.worker === part.worker && run.opened && !run.broken && run.epoch === this.pool.epoch && run.claimed === from);
    const feeding = this.pool.feed(part.worker, layout.file, from, to, file === undefined ? [part.key] : [part.key, file.key]);
    if (file !== undefined) {
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
    if (part.inline !== undefined) return finishInline(part, part.inline).md5;
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
    if (part?.inline !== undefined) {
      const result = part.inline.result;
      if (recorded && result?.sha256 !== undefined) {
        // The one part is the whole file: its digest is the file's, nothing to read back.
        this.known.set(layout.uploadId, { digest: { md5: result.md5, sha256: result.sha256 }, bytes: this.keep(part.inline.chunks, layout.size) });
        return;
      }
    } else if (part?.md5 === undefined && part !== undefined) this.pool.drop(part.worker, part.key).catch(() => undefined);
    if (!recorded) this.dropFileIfCovered(layout.uploadId, partRange(layout.size, layout.partSize, partNumber).start);
    this.pump(layout);
  }

  /** The digest of the whole `layout.size`-byte file (no part may be arriving). */
  async finish(layout: DigestLayout): Promise<FileDigest> {
    const known = this.known.get(layout.uploadId)?.digest;
    this.forgetKnown(layout.uploadId);
    if (known !== undefined) return known;
    // Taken out first, so nothing feeds them any more; then they finish side by side, each on its worker.
    const running = this.lanes().map((_, index) => this.current(layout.uploadId, index));
    this.files.delete(layout.uploadId);
    const lanes = await Promise.all(running.map((file, index) => this.finishLane(layout, index, file)));
    const md5 = lanes.find((answer) => answer.md5 !== undefined)?.md5;
    const sha256 = lanes.find((answer) => answer.sha256 !== undefined)?.sha256;
    if (md5 === undefined || sha256 === undefined) throw new Error(`could not digest upload ${layout.uploadId}`);
    return { md5, sha256 };
  }

  /** One lane's digests over the whole file: the running one fed to the end, or a fresh one from byte 0. */
  private async finishLane(layout: DigestLayout, index: number, file: FileRun | undefined): Promise<Partial<FileDigest>> {
    if (file?.opened === true && !file.broken) {
      const digest = await this.complete(layout, file, file.claimed).catch(() => undefined);
      if (digest !== undefined) return digest;
    }
    const fresh = this.makeRun(layout.uploadId, index);
    await this.pool.open(fresh.worker, fresh.key, 0, fresh.lane);
    const digest = await this.complete(layout, fresh, 0);
    if (digest === undefined) throw new Error(`could not digest upload ${layout.uploadId}`);
    return digest;
  }

  /**
   * The bytes of a small one-part upload, as its recorded PUT brought them, until `finish` (undefined
   * when they were not kept: a larger or multipart upload, a part PUT again and not recorded, the
   * memory budget spent, a restart).
   */
  keptFile(uploadId: string): Buffer | undefined {
    return this.known.get(uploadId)?.bytes;
  }

  /** Forgets every digest of an upload (discarded). */
  drop(uploadId: string): void {
    this.forgetKnown(uploadId);
    this.dropFile(uploadId);
    for (const part of this.parts.get(uploadId)?.values() ?? []) this.pool.drop(part.worker, part.key).catch(() => undefined);
    this.parts.delete(uploadId);
  }

  /** Stops feeding file digests (the service is closing; its database is about to go). */
  close(): void {
    this.closed = true;
    this.known.clear();
    this.keptBytes = 0;
    this.files.clear();
    this.parts.clear();
  }

  /** One copy of the chunks (the body's buffers may be slices of larger ones), if the budget allows. */
  private keep(chunks: Buffer[] | undefined, size: number): Buffer | undefined {
    if (chunks === undefined || this.keptBytes + size > KEEP_TOTAL_BYTES) return undefined;
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (const chunk of chunks) at += chunk.copy(bytes, at);
    if (at !== size) return undefined;
    this.keptBytes += size;
    return bytes;
  }

  private forgetKnown(uploadId: string): void {
    this.keptBytes -= this.known.get(uploadId)?.bytes?.length ?? 0;
    this.known.delete(uploadId);
  }

  /** Sends each file digest lane the next slice of contiguous bytes it has not been sent yet. */
  private pump(layout: DigestLayout): void {
    this.lanes().forEach((_, index) => {
      this.pumpLane(layout, index);
    });
  }

  /** Sends one lane its next slice, one slice at a time. */
  private pumpLane(layout: DigestLayout, index: number): void {
    if (this.closed) return;
    const file = this.current(layout.uploadId, index);
    if (file !== undefined && (file.stepping || file.broken)) return;
    const claimed = file?.claimed ?? 0;
    const parts = this.parts.get(layout.uploadId);
    const end = contiguousEnd(layout, claimed, (partNumber) => parts?.get(partNumber)?.written ?? (this.isRecorded(layout.uploadId, partNumber) ? 'recorded' : undefined));
    if (end <= claimed) return;
    const run = file ?? this.fileRun(layout.uploadId, index);
    this.openFile(run);
    const to = Math.min(end, claimed + STEP);
    run.claimed = to;
    run.stepping = true;
    const feeding = this.pool.feed(run.worker, layout.file, claimed, to, [run.key]);
    this.watch(feeding, run, to);
    void feeding
      .catch(() => undefined)
      .then(() => {
        run.stepping = false;
        if (this.files.get(layout.uploadId)?.[index] === run) this.pumpLane(layout, index);
      });
  }

  /** Feeds [from, size) to a lane and finishes it; undefined when it did not see every byte. */
  private async complete(layout: DigestLayout, file: FileRun, from: number): Promise<Partial<FileDigest> | undefined> {
    // Sent back to back: the worker handles messages in order.
    const feeding = from < layout.size ? this.pool.feed(file.worker, layout.file, from, layout.size, [file.key]) : undefined;
    const [answer] = await Promise.all([this.pool.finish(file.worker, file.key), feeding]);
    if (answer.offset !== layout.size || (file.lane.md5 && answer.md5 === undefined) || (file.lane.sha256 && answer.sha256 === undefined)) return undefined;
    return { ...(file.lane.md5 ? { md5: answer.md5 } : {}), ...(file.lane.sha256 ? { sha256: answer.sha256 } : {}) };
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

  /** The lanes of a file digest: one with both digests, or with several workers one each (MD5 first). */
  private lanes(): Lane[] {
    return this.pool.size === 1
      ? [{ md5: true, sha256: true }]
      : [
          { md5: true, sha256: false },
          { md5: false, sha256: true },
        ];
  }

  /** A lane of the upload's file digest, unless a lost worker took it along (then it starts over, not gives up). */
  private current(uploadId: string, index: number): FileRun | undefined {
    const file = this.files.get(uploadId)?.[index];
    if (file === undefined || file.epoch === this.pool.epoch) return file;
    this.forget(uploadId, index);
    return undefined;
  }

  /** The lane's running digest, or a new one from byte 0 in its place. */
  private fileRun(uploadId: string, index: number): FileRun {
    const running = this.current(uploadId, index);
    if (running !== undefined) return running;
    const file = this.makeRun(uploadId, index);
    let runs = this.files.get(uploadId);
    if (runs === undefined) {
      runs = [];
      this.files.set(uploadId, runs);
    }
    runs[index] = file;
    return file;
  }

  /** A lane digest from byte 0 (not opened on its worker yet). */
  private makeRun(uploadId: string, index: number): FileRun {
    const lane = this.lanes()[index] ?? { md5: true, sha256: true };
    const worker = (this.home(uploadId) + index) % this.pool.size;
    return { lane, key: this.newKey(uploadId), worker, epoch: this.pool.epoch, claimed: 0, opened: false, stepping: false, broken: false };
  }

  private openFile(file: FileRun): void {
    if (file.opened) return;
    file.opened = true;
    this.watch(this.pool.open(file.worker, file.key, 0, file.lane), file, 0);
  }

  /** Drops every lane that has read bytes from `start` on. */
  private dropFileIfCovered(uploadId: string, start: number): void {
    this.files.get(uploadId)?.forEach((file, index) => {
      if (file !== undefined && start < file.claimed) this.dropLane(uploadId, index);
    });
  }

  private dropFile(uploadId: string): void {
    this.files.get(uploadId)?.forEach((_, index) => {
      this.dropLane(uploadId, index);
    });
    this.files.delete(uploadId);
  }

  private dropLane(uploadId: string, index: number): void {
    const file = this.files.get(uploadId)?.[index];
    if (file === undefined) return;
    this.forget(uploadId, index);
    if (file.opened) this.pool.drop(file.worker, file.key).catch(() => undefined);
  }

  private forget(uploadId: string, index: number): void {
    const runs = this.files.get(uploadId);
    if (runs === undefined) return;
    runs[index] = undefined;
    if (runs.every((run) => run === undefined)) this.files.delete(uploadId);
  }

  /** Part 1 lives with the file MD5 (it borrows it); the other parts go round the other workers. */
  private partWorker(uploadId: string, partNumber: number): number {
    const home = this.home(uploadId);
    const size = this.pool.size;
    if (partNumber === 1 || size === 1) return home;
    return (home + 1 + ((partNumber - 2) % (size - 1))) % size;
  }

  /** The worker that keeps an upload's file MD5. */
  private home(uploadId: string): number {
    let hash = 0;
    for (let index = 0; index < uploadId.length; index++) hash = (hash * 31 + uploadId.charCodeAt(index)) | 0;
    return Math.abs(hash) % this.pool.size;
  }

  private newKey(uploadId: string): string {
    return `${uploadId}:${++this.generation}`;
  }
}

/** Completes an inline digest; throws unless it took exactly the part's bytes and all were written. */
function finishInline(part: PartRun, inline: InlineDigest): NonNullable<InlineDigest['result']> {
  if (inline.result !== undefined) return inline.result;
  const size = part.range.end - part.range.start;
  if (inline.received !== size || part.written !== size) {
    throw new Error(`part ${part.range.partNumber} was hashed from ${inline.received} bytes with ${part.written} written; it has ${size}`);
  }
  inline.result = { md5: inline.md5.digest('hex'), sha256: inline.sha256?.digest('hex') };
  return inline.result;
}

/**
 * Row ids that sort by the time they were made: UUIDv7 (RFC 9562) for resource ids, and a time-prefixed
 * random token for upload ids. SQLite keeps every table and index as a B-tree ordered by key; a random
 * key (UUIDv4) lands each insert on a different page, so a commit writes a whole page to the log per
 * row per index, and a checkpoint later copies every one of those pages. Keys that grow with time land
 * together on the rightmost pages, which a commit of several rows and each checkpoint write once.
 *
 * Ids made in the same millisecond still increase: the 12 bits after the version count within the
 * millisecond (RFC 9562 §6.2, method 1), starting from a random value; when they run out, the clock
 * part moves on a millisecond. The remaining 62 bits are random, so ids stay unguessable.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

/** `count` random bytes from a pool refilled in large draws (one syscall per 4 KiB, not per id). */
function randomBytesFromPool(count: number): Buffer {
  if (poolAt + count > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + count);
  poolAt += count;
  return bytes;
}

/** The clock part of ids: never behind the previous id, even if the system clock steps back. */
export class IdStamps {
  private lastMs = 0;
  private counter = 0;

  constructor(private readonly randomByte: () => number = () => randomBytesFromPool(1)[0] ?? 0) {}

  /**
   * The millisecond and counter for the next id. `now` is floored: a clock may give fractions of a
   * millisecond (the simulation's virtual one does), a UUID's 48 bits cannot hold one, and an id such
   * as `19b76dd32d2.8…` is refused by the service's own routes (time-ordered-id.test.ts).
   */
  next(now: number): { ms: number; count: number } {
    const ms = Math.floor(now);
    if (ms > this.lastMs) {
      this.lastMs = ms;
      // A random start low in the counter's range: many ids still fit in the millisecond.
      this.counter = this.randomByte() & 0x3ff;
    } else if (this.counter < 0xfff) {
      this.counter++;
    } else {
      this.lastMs++;
      this.counter = 0;
    }
    return { ms: this.lastMs, count: this.counter };
  }
}

const stamps = new IdStamps();

/** A UUIDv7: 48 bits of Unix milliseconds, version 7, a 12-bit counter, the variant, 62 random bits. */
export function timeOrderedUuid(now = Date.now(), clock = stamps): string {
  return uuidOf(clock.next(now), randomBytesFromPool(8));
}

function uuidOf({ ms, count }: { ms: number; count: number }, random: Buffer): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes.writeUInt16BE(0x7000 | count, 6);
  random.copy(bytes, 8);
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * An opaque token that sorts by time: 12 hex digits of milliseconds and 3 of the counter, then 12
 * random bytes in base64url (whose alphabet does not sort like its bytes, so only the prefix orders).
 */
export function timeOrderedToken(now = Date.now(), clock = stamps): string {
  return tokenOf(clock.next(now), randomBytesFromPool(12));
}

function tokenOf({ ms, count }: { ms: number; count: number }, random: Buffer): string {
  return `${ms.toString(16).padStart(12, '0')}${count.toString(16).padStart(3, '0')}${Buffer.from(random).toString('base64url')}`;
}

/**
 * Where the service's row ids come from (`ServiceDeps.ids`): the assets, files, folder options, jobs,
 * uploads and scrolls a client creates. Production draws them from the system clock and crypto
 * randomness (the functions above); the simulation gives one on its virtual clock and a seeded
 * generator, so which of two options sorts first (and so which folder a case-insensitive client
 * numbers `a (2)`) is the same in every run of a seed.
 */
export interface IdSource {
  /** A UUIDv7 (resource ids). */
  uuid(): string;
  /** A time-ordered opaque token (upload ids). */
  token(): string;
}

/** The production source: the system clock (through `now`) and the crypto pool. */
export function cryptoIds(now: () => number = Date.now): IdSource {
  return { uuid: () => timeOrderedUuid(now()), token: () => timeOrderedToken(now()) };
}

/**
 * A source whose random parts come from `random` (filling a buffer) and whose clock part from `now`:
 * the same draws and the same clock give the same ids. Its stamps are its own.
 */
export function idSourceFrom(now: () => number, random: (bytes: Buffer) => void): IdSource {
  const clock = new IdStamps(() => {
    const byte = Buffer.alloc(1);
    random(byte);
    return byte[0] ?? 0;
  });
  const draw = (count: number): Buffer => {
    const bytes = Buffer.alloc(count);
    random(bytes);
    return bytes;
  };
  return {
    uuid: () => uuidOf(clock.next(now()), draw(8)),
    token: () => tokenOf(clock.next(now()), draw(12)),
  };
}

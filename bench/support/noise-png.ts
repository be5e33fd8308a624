/**
 * A valid PNG of exactly `size` bytes whose pixels are noise: what a folder of small images looks like
 * to the sync (each file unique, a header any reader takes), made in microseconds without an encoder.
 * Grayscale, 32 px wide, its rows stored uncompressed (deflate level 0), padded to the size with a
 * tEXt chunk.
 */
import { randomFillSync } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

const WIDTH = 32;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Signature, IHDR, the IDAT's chunk frame and stored-deflate frame (one block), IEND. */
const FIXED_BYTES = 8 + 25 + 12 + 11 + 12;
/** The smallest tEXt chunk: its frame and "Comment\0". */
const MIN_TEXT_BYTES = 12 + 8;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function noisePng(size: number): Buffer {
  const rowBytes = 1 + WIDTH;
  const height = Math.floor((size - FIXED_BYTES - MIN_TEXT_BYTES) / rowBytes);
  if (height < 1 || height * rowBytes > 65_535) throw new Error(`a noise PNG of ${size} bytes cannot be made`);
  const raw = randomFillSync(Buffer.alloc(height * rowBytes));
  for (let row = 0; row < height; row++) raw[row * rowBytes] = 0; // filter type None
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(WIDTH, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const idat = deflateSync(raw, { level: 0 });
  const pad = size - (FIXED_BYTES + raw.length);
  const text = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(pad - MIN_TEXT_BYTES, 0x20)]);
  const png = Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('tEXt', text), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
  if (png.length !== size) throw new Error(`made a ${png.length}-byte PNG, not ${size}`);
  return png;
}

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileTypeFromFile } from 'file-type';
import mime from 'mime';
import realSharp from 'sharp';
import { tempDir } from '../../../test/support/temp-dir.js';
import { nestedUseSvg } from '../../../test/support/hostile-svg.js';

// Counts sharp calls (every call still goes to the real sharp).
const sharpCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('sharp', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof realSharp }>()).default;
  const counted = (...args: Parameters<typeof realSharp>) => {
    sharpCalls.count++;
    return actual(...args);
  };
  return { default: Object.assign(counted, actual) };
});

const { classify, describeFile, mayBeLoadable } = await import('./describe-file.js');

/** describeFile as it was before the fast paths: sniff from the file, then ask sharp about any image. */
async function reference(path: string, filename: string, size: number) {
  const sniffed = size > 0 ? await fileTypeFromFile(path).catch(() => undefined) : undefined;
  const [type = 'application', subType = 'octet-stream'] = (sniffed?.mime ?? mime.getType(filename) ?? 'application/octet-stream').toLowerCase().split(';')[0]?.trim().split('/') ?? [];
  const fileType = classify({ type, subType });
  let dimensions: { width: number; height: number } | null = null;
  if (fileType === 'IMAGE' && size > 0) {
    const metadata = await realSharp(path, { failOn: 'none' }).metadata().catch(() => undefined);
    if (metadata !== undefined) dimensions = (metadata.orientation ?? 1) >= 5 ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  }
  return { mediaType: { type, subType }, fileType, dimensions };
}

describe('describeFile', () => {
  let dir: string;
  const samples: { name: string; bytes: Buffer }[] = [];
  beforeAll(async () => {
    dir = tempDir('describe-file-');
    const image = () => realSharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>';
    samples.push(
      { name: 'a.png', bytes: await image().png().toBuffer() },
      { name: 'sideways.jpg', bytes: await image().jpeg().withMetadata({ orientation: 6 }).toBuffer() },
      { name: 'named-wrong.bin', bytes: await image().webp().toBuffer() },
      { name: 'a.gif', bytes: await image().gif().toBuffer() },
      // Two frames of 40×30: the size is one frame's, as libvips reads the screen.
      { name: 'animated.gif', bytes: await realSharp(Buffer.concat([await image().raw().toBuffer(), await image().raw().toBuffer()]), { raw: { width: 40, height: 60, channels: 3, pageHeight: 30 } }).gif().toBuffer() },
      { name: 'lossless.webp', bytes: await image().webp({ lossless: true }).toBuffer() },
      { name: 'alpha.webp', bytes: await image().ensureAlpha(0.5).webp().toBuffer() },
      { name: 'progressive.jpg', bytes: await image().jpeg({ progressive: true }).toBuffer() },
      // The header whole, the pixels cut off: both readers size it from the header.
      { name: 'cut.png', bytes: (await image().png().toBuffer()).subarray(0, 40) },
      { name: 'cut.jpg', bytes: (await image().jpeg().toBuffer()).subarray(0, 300) },
      { name: 'cut.webp', bytes: (await image().webp().toBuffer()).subarray(0, 30) },
      { name: 'cut.gif', bytes: (await image().gif().toBuffer()).subarray(0, 30) },
      { name: 'a.tiff', bytes: await image().tiff().toBuffer() },
      { name: 'a.avif', bytes: await image().avif().toBuffer() },
      { name: 'large.png', bytes: await realSharp({ create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer() },
      { name: 'drawing.svg', bytes: Buffer.from(svg) },
      { name: 'drawing-with-bom.svg', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(svg)]) },
      { name: 'declared.svg', bytes: Buffer.from(`<?xml version="1.0"?>\n${svg}`) },
      { name: 'random.png', bytes: randomBytes(4096) },
      { name: 'random-large.jpg', bytes: randomBytes(200_000) },
      { name: 'text.png', bytes: Buffer.from('not an image at all, only words') },
      { name: 'one.png', bytes: Buffer.from([0x89]) },
      { name: 'empty.png', bytes: Buffer.alloc(0) },
      { name: 'notes.txt', bytes: Buffer.from('hello') },
      { name: 'data.bin', bytes: randomBytes(1000) },
      { name: 'document.pdf', bytes: Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1') },
    );
    for (const sample of samples) writeFileSync(join(dir, sample.name), sample.bytes);
  });

  it('describes every sample exactly as sniffing the file and asking sharp does', async () => {
    for (const { name, bytes } of samples) {
      const path = join(dir, name);
      expect({ name, ...(await describeFile(path, name, bytes.length)) }).toEqual({ name, ...(await reference(path, name, bytes.length)) });
    }
  });

  it('describes every sample the same from the bytes handed in, without reading a small file', async () => {
    for (const { name, bytes } of samples) {
      const path = join(dir, name);
      expect({ name, ...(await describeFile(path, name, bytes.length, bytes)) }).toEqual({ name, ...(await reference(path, name, bytes.length)) });
    }
    // No file to read: a small non-image is described from the bytes alone.
    const pdf = samples.find((sample) => sample.name === 'document.pdf')?.bytes ?? Buffer.alloc(0);
    expect(await describeFile(join(dir, 'missing.pdf'), 'missing.pdf', pdf.length, pdf)).toMatchObject({ mediaType: { type: 'application', subType: 'pdf' } });
    // Bytes of another size than the file's are not taken for it.
    expect(await describeFile(join(dir, 'notes.txt'), 'notes.txt', 5, Buffer.from('%PDF-1.4\n'))).toMatchObject({ mediaType: { type: 'text', subType: 'plain' } });
  });

  it('measures real images, the rotated JPEG as shown', async () => {
    expect(await describeFile(join(dir, 'a.png'), 'a.png', samples[0]?.bytes.length ?? 0)).toEqual({ mediaType: { type: 'image', subType: 'png' }, fileType: 'IMAGE', dimensions: { width: 40, height: 30 } });
    const jpeg = samples[1]?.bytes.length ?? 0;
    expect((await describeFile(join(dir, 'sideways.jpg'), 'sideways.jpg', jpeg)).dimensions).toEqual({ width: 30, height: 40 });
    const svg = samples.find((sample) => sample.name === 'drawing.svg')?.bytes.length ?? 0;
    expect((await describeFile(join(dir, 'drawing.svg'), 'drawing.svg', svg)).dimensions).toEqual({ width: 20, height: 10 });
  });

  it('does not ask sharp about bytes no format it loads starts with', async () => {
    sharpCalls.count = 0;
    const described = await describeFile(join(dir, 'random.png'), 'random.png', 4096);
    expect(described).toEqual({ mediaType: { type: 'image', subType: 'png' }, fileType: 'IMAGE', dimensions: null });
    expect(sharpCalls.count).toBe(0);
    await describeFile(join(dir, 'a.tiff'), 'a.tiff', samples.find((sample) => sample.name === 'a.tiff')?.bytes.length ?? 0);
    expect(sharpCalls.count).toBe(1);
  });

  it('sizes a small JPEG, PNG, GIF or WebP from its header, without sharp', async () => {
    sharpCalls.count = 0;
    for (const name of ['a.png', 'sideways.jpg', 'a.gif', 'animated.gif', 'lossless.webp', 'alpha.webp', 'progressive.jpg', 'named-wrong.bin']) {
      const bytes = samples.find((sample) => sample.name === name)?.bytes ?? Buffer.alloc(0);
      expect((await describeFile(join(dir, name), name, bytes.length, bytes)).dimensions, name).not.toBeNull();
    }
    expect(sharpCalls.count).toBe(0);
  });

  it('does not ask sharp to size an SVG whose references blow up: it gets no dimensions', async () => {
    const bomb = nestedUseSvg(5, 10);
    writeFileSync(join(dir, 'nested.svg'), bomb);
    sharpCalls.count = 0;
    const described = await describeFile(join(dir, 'nested.svg'), 'nested.svg', bomb.length, bomb);
    expect(described).toEqual({ mediaType: { type: 'image', subType: 'svg+xml' }, fileType: 'IMAGE', dimensions: null });
    expect(sharpCalls.count).toBe(0);
  });

  it('tells which first bytes a loader of this sharp build might take', () => {
    const of = (...bytes: number[]) => Uint8Array.from(bytes);
    expect(mayBeLoadable(of(0xff, 0xd8, 0x00, 0x01))).toBe(true);
    expect(mayBeLoadable(of(0x89, 0x50, 0x4e, 0x47, 0x0d))).toBe(true);
    expect(mayBeLoadable(Buffer.from('GIF89a'))).toBe(true);
    expect(mayBeLoadable(Buffer.from('RIFF\0\0\0\0WEBP'))).toBe(true);
    expect(mayBeLoadable(Buffer.from('II*\0'))).toBe(true);
    expect(mayBeLoadable(Buffer.from('\0\0\0\x1cftypavif'))).toBe(true);
    expect(mayBeLoadable(of(0x08, 0xf2, 0xa6, 0xb6, 0, 0))).toBe(true);
    expect(mayBeLoadable(Buffer.from('\n  <svg xmlns="http://www.w3.org/2000/svg">'))).toBe(true);
    expect(mayBeLoadable(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<svg>')]))).toBe(true);
    expect(mayBeLoadable(of(0x00, 0x01, 0x02, 0x03))).toBe(false);
    expect(mayBeLoadable(of(0x3c, 0x73, 0x76, 0x67, 0x00))).toBe(false);
    expect(mayBeLoadable(of(0xfe, 0xff, 0x00, 0x3c))).toBe(false);
  });
});

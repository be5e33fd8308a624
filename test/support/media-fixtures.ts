/**
 * Real media for transformation and preview tests: images made with sharp, PDFs made with MuPDF itself
 * (so a test needs no fixture files), and a download-job runner that answers the finished job.
 */
import sharp from 'sharp';
import type { TestService } from './test-service.js';
import { waitForJob } from './upload-helpers.js';

/** A JPEG (or another format) of one colour, with a different-coloured box at (x, y) when `box` is given. */
export async function makeImage(
  width: number,
  height: number,
  options: { format?: 'jpeg' | 'png' | 'gif' | 'webp' | 'tiff'; box?: { x: number; y: number; width: number; height: number } } = {},
): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } });
  const { box } = options;
  const composed =
    box === undefined
      ? base
      : base.composite([{ input: { create: { width: box.width, height: box.height, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: box.x, top: box.y }]);
  return options.format === undefined || options.format === 'jpeg' ? composed.jpeg({ quality: 95 }).toBuffer() : composed.toFormat(options.format).toBuffer();
}

/**
 * A PDF of `pages` pages of 400×300 pt, made with MuPDF: the left half of page 1 is red, of page 2
 * blue, the rest white.
 */
export async function makePdf(pages = 2): Promise<Buffer> {
  const mupdf = await import('mupdf');
  const document = new mupdf.PDFDocument();
  const colours = ['1 0 0', '0 0 1', '0 1 0'];
  for (let page = 0; page < pages; page++) {
    const colour = colours[page % colours.length] ?? '0 0 0';
    document.insertPage(-1, document.addPage([0, 0, 400, 300], 0, document.newDictionary(), `${colour} rg 0 0 200 300 re f`));
  }
  const bytes = Buffer.from(document.saveToBuffer('').asUint8Array());
  document.destroy();
  return bytes;
}

/** The RGB of the pixel at (x, y). */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

/** Creates a download job and waits for it; answers the finished job. */
export async function runDownloadJob(service: TestService, body: unknown): Promise<any> {
  const created = await service.api('POST', '/asset-download-batch-jobs', body);
  if (created.status !== 200) throw new Error(`download job refused: ${created.text}`);
  return waitForJob(service, '/asset-download-batch-jobs', created.body.result.id);
}

export async function fetchBytes(url: string, headers: Record<string, string> = {}): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * A one-page PDF that takes MuPDF a long while to draw (`shapes` small filled triangles, each its own
 * path): for tests that need a page to be rendering while they do something else.
 */
export async function makeHeavyPdf(shapes = 10_000): Promise<Buffer> {
  const mupdf = await import('mupdf');
  const document = new mupdf.PDFDocument();
  const ops: string[] = [];
  for (let index = 0; index < shapes; index++) {
    const x = (index * 7) % 590;
    const y = (index * 13) % 836;
    ops.push(`${(index % 10) / 10} 0.5 ${((index * 3) % 10) / 10} rg ${x} ${y} m ${x + 5} ${y} l ${x} ${y + 6} l f`);
  }
  document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, document.newDictionary(), ops.join('\n')));
  const bytes = Buffer.from(document.saveToBuffer('compress').asUint8Array());
  document.destroy();
  return bytes;
}

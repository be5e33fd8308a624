import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { startTestService, type TestService } from '../../support/test-service.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { fetchBytes, makeImage, makePdf, runDownloadJob } from '../../support/media-fixtures.js';
import { md5Hex } from '../../support/checksums.js';

/** Every entry of a zip held in memory: name → bytes (yauzl checks each entry's CRC as it reads). */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError !== null) {
            reject(openError);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('zipped downloads', () => {
  let service: TestService;
  const assets: Record<string, string> = {};
  const bytes: Record<string, Buffer> = {};
  beforeAll(async () => {
    service = await startTestService();
    bytes.jpeg = await makeImage(1200, 800);
    bytes.png = await makeImage(640, 480, { format: 'png' });
    bytes.pdf = await makePdf();
    bytes.text = Buffer.from('notes, kept inline\n');
    assets.jpeg = (await uploadNewAsset(service, '/z/photo.jpg', bytes.jpeg)).assetId;
    assets.png = (await uploadNewAsset(service, '/z/photo.png', bytes.png)).assetId;
    assets.pdf = (await uploadNewAsset(service, '/z/brief.pdf', bytes.pdf)).assetId;
    assets.text = (await uploadNewAsset(service, '/z/notes.txt', bytes.text)).assetId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('streams one zip of mixed files with the right entries and bytes, resumable with Range', async () => {
    const job = await runDownloadJob(service, {
      items: ['jpeg', 'png', 'pdf', 'text'].map((kind) => ({ batchItemId: kind, assetId: assets[kind], assetFileId: null })),
      transformationDescription: { type: 'PRESET', presetTransformationId: 'thumbnail-300-webp' },
      zip: true,
    });
    expect(job.error ?? null).toBeNull();
    expect(job.state).toBe('COMPLETED');
    // Both photos become photo.webp: the second is renamed, not lost.
    expect(job.successes.jpeg.filename).toBe('photo.webp');
    expect(job.successes.png.filename).toBe('photo.webp');
    expect(job.result).toMatchObject({ zipUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/download-zips\//), filename: expect.stringMatching(/\.zip$/) });

    const { response, bytes: zip } = await fetchBytes(job.result.zipUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(zip.length).toBe(job.result.size);
    expect(md5Hex(zip)).toBe(job.result.checksum);

    const entries = await unzip(zip);
    expect([...entries.keys()]).toEqual(['photo.webp', 'photo (2).webp', 'brief.pdf', 'notes.txt']);
    expect(entries.get('brief.pdf')?.equals(bytes.pdf ?? Buffer.alloc(0))).toBe(true);
    expect(entries.get('notes.txt')?.toString()).toBe('notes, kept inline\n');
    const first = entries.get('photo.webp') ?? Buffer.alloc(0);
    expect(await sharp(first).metadata()).toMatchObject({ format: 'webp', width: 300, height: 200 });
    expect(await sharp(entries.get('photo (2).webp')).metadata()).toMatchObject({ format: 'webp', width: 300, height: 225 });
    // The entry is the very rendition the item's own URL serves.
    expect(first.equals((await fetchBytes(job.successes.jpeg.url)).bytes)).toBe(true);

    const tail = await fetchBytes(job.result.zipUrl, { range: 'bytes=1234-' });
    expect(tail.response.status).toBe(206);
    expect(tail.bytes.equals(zip.subarray(1234))).toBe(true);
    const middle = await fetchBytes(job.result.zipUrl, { range: 'bytes=100-199' });
    expect(middle.bytes.equals(zip.subarray(100, 200))).toBe(true);
  });

  it('zips originals without a transformation, leaving out items that failed', async () => {
    const job = await runDownloadJob(service, {
      items: [
        { batchItemId: 'a', assetId: assets.text, assetFileId: null },
        { batchItemId: 'gone', assetId: 'no-such-asset', assetFileId: null },
      ],
      zip: true,
    });
    expect(job.failures.gone).toMatchObject({ code: 'NOT_FOUND' });
    const entries = await unzip((await fetchBytes(job.result.zipUrl)).bytes);
    expect([...entries.keys()]).toEqual(['notes.txt']);
  });

  it('makes entry names safe: a name that is a path or a drive elsewhere still zips, inside the zip', async () => {
    // Both are legal asset names; in a zip they would point outside the folder it unpacks to.
    const hostile = ['..\\..\\evil.txt', 'C:'];
    const ids = [];
    for (const [index, name] of hostile.entries()) {
      const { assetId } = await uploadNewAsset(service, `/z/hostile-${index}.txt`, Buffer.from(`hostile ${index}`));
      expect((await service.api('PATCH', `/assets/${assetId}`, { filename: name })).status).toBe(200);
      ids.push(assetId);
    }
    const job = await runDownloadJob(service, { items: [...ids, assets.text].map((assetId, index) => ({ batchItemId: String(index), assetId, assetFileId: null })), zip: true });
    expect(job.error ?? null).toBeNull();
    expect(job.state).toBe('COMPLETED');
    const { bytes: zip } = await fetchBytes(job.result.zipUrl);
    const entries = await unzip(zip);
    const names = [...entries.keys()];
    expect(names).toHaveLength(3);
    // One plain name each: no separator, no drive, no parent reference.
    for (const name of names) expect(name).toMatch(/^[^/\\:]+$/);
    expect(names).not.toContain('..');
    expect(names[2]).toBe('notes.txt');
    expect(names[0]).toContain('evil.txt');
    expect(entries.get(names[0] ?? '')?.toString()).toBe('hostile 0');
    expect(entries.get(names[1] ?? '')?.toString()).toBe('hostile 1');
  });

  it('refuses a zip URL that was not signed for it', async () => {
    const job = await runDownloadJob(service, { items: [{ batchItemId: 'a', assetId: assets.text, assetFileId: null }], zip: true });
    const tampered = new URL(job.result.zipUrl);
    tampered.pathname = tampered.pathname.replace(/[^/]+$/, 'another');
    expect((await fetch(tampered)).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { cli } from '../support/cli-runner.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { uploadNewAsset } from '../support/upload-helpers.js';
import { makeImage, makePdf } from '../support/media-fixtures.js';
import { sendJson, startFakeServer } from '../support/api-client-fakes.js';
import { renderTransformation, type RenderTransformation } from '../../src/service/transforms/render-transformation.js';
import { md5Hex } from '../support/checksums.js';
import { partPathName } from '../../src/main/app/fetch-verified-file.js';
import { tempDir } from '../support/temp-dir.js';

function zipNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: false }, (error, file) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      file.on('end', () => resolve(names));
      file.on('error', reject);
    });
  });
}

describe('asset-sync download', () => {
  let service: TestService;
  let env: Record<string, string>;
  let state: string;
  const ids: Record<string, string> = {};
  const bytes: Record<string, Buffer> = {};
  const download = (args: string[]) => cli(['download', '--server', service.url, '--state', state, ...args], env);

  beforeAll(async () => {
    service = await startTestService();
    env = { ASSET_SYNC_TOKEN: await service.token() };
    state = tempDir();
    bytes.photo = await makeImage(2400, 1600);
    bytes.brief = await makePdf();
    ids.photo = (await uploadNewAsset(service, '/dl/harbour photo.jpg', bytes.photo)).assetId;
    ids.brief = (await uploadNewAsset(service, '/dl/harbour brief.pdf', bytes.brief)).assetId;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('downloads assets by id as they are, printing where each went', async () => {
    const out = tempDir();
    const run = await download([ids.photo ?? '', ids.brief ?? '', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.out.split('\n')).toEqual([join(out, 'harbour photo.jpg'), join(out, 'harbour brief.pdf')]);
    expect(readFileSync(join(out, 'harbour photo.jpg')).equals(bytes.photo ?? Buffer.alloc(0))).toBe(true);
    expect(readFileSync(join(out, 'harbour brief.pdf')).equals(bytes.brief ?? Buffer.alloc(0))).toBe(true);
    // Nothing half-done is left behind.
    expect(readdirSync(out).sort()).toEqual(['harbour brief.pdf', 'harbour photo.jpg']);
  });

  it('finds assets by search and applies a preset by name: the photo web-sized, the PDF as it is', async () => {
    const out = tempDir();
    const run = await download(['--search', 'HARBOUR', '--preset', 'web (1000 px jpg)', '--out', out]);
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['harbour brief.pdf', 'harbour photo.jpg']);
    expect(await sharp(join(out, 'harbour photo.jpg')).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 667 });
    expect(readFileSync(join(out, 'harbour brief.pdf')).equals(bytes.brief ?? Buffer.alloc(0))).toBe(true);
  });

  it('downloads one zip of them all', async () => {
    const out = tempDir();
    const run = await download([ids.photo ?? '', ids.brief ?? '', '--preset', 'thumbnail-300-webp', '--zip', '--out', out]);
    expect(run.code).toBe(0);
    const [zip] = readdirSync(out);
    expect(zip).toMatch(/^assets-[0-9a-f]{12}\.zip$/);
    expect(await zipNames(join(out, zip ?? ''))).toEqual(['harbour photo.webp', 'harbour brief.pdf']);
  });

  it('resumes a partial download, and never takes a file that does not match', async () => {
    const out = tempDir();
    const photo = bytes.photo ?? Buffer.alloc(0);
    const part = join(out, partPathName('harbour photo.jpg', md5Hex(photo)));
    writeFileSync(part, photo.subarray(0, 5000));
    const resumed = await download([ids.photo ?? '', '--out', out]);
    expect(resumed.code).toBe(0);
    expect(resumed.err).toMatch(/harbour photo\.jpg \(resumed at 5\.00 kB\)/);
    expect(readFileSync(join(out, 'harbour photo.jpg')).equals(photo)).toBe(true);

    // A partial file whose bytes are wrong: the download fails its check and is dropped; the next run succeeds.
    const other = tempDir();
    const corrupt = Buffer.from(photo.subarray(0, 5000));
    corrupt.fill(7, 100, 200);
    writeFileSync(join(other, partPathName('harbour photo.jpg', md5Hex(photo))), corrupt);
    const failed = await download([ids.photo ?? '', '--out', other]);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/expected \d+ bytes with MD5 [0-9a-f]{32}; run the command again\. \[FAILED\]/);
    expect(readdirSync(other)).toEqual([]);
    expect((await download([ids.photo ?? '', '--out', other])).code).toBe(0);
    expect(readFileSync(join(other, 'harbour photo.jpg')).equals(photo)).toBe(true);
  });

  it('keeps a different file of the same name, and skips the same file', async () => {
    const out = tempDir();
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'harbour brief.pdf'), 'my own notes');
    expect((await download([ids.brief ?? '', '--out', out])).out).toBe(join(out, 'harbour brief (2).pdf'));
    expect(readFileSync(join(out, 'harbour brief.pdf'), 'utf8')).toBe('my own notes');
    const again = await download([ids.brief ?? '', '--out', out]);
    expect(again.out).toBe(join(out, 'harbour brief (2).pdf'));
    expect(again.err).toContain('(already there)');
  });

  it('fetches several at once, yet files of one name keep the order asked: the first keeps the name', async () => {
    // Run at once, the small one would finish first: the large one, asked first, must still keep the name.
    const large = randomBytes(24 << 20);
    const small = Buffer.from('a few bytes');
    const largeId = (await uploadNewAsset(service, '/dl/a/notes.bin', large)).assetId;
    const smallId = (await uploadNewAsset(service, '/dl/b/notes.bin', small)).assetId;
    const out = tempDir();
    const run = await download([ids.brief ?? '', largeId, smallId, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.out.split('\n')).toEqual([join(out, 'harbour brief.pdf'), join(out, 'notes.bin'), join(out, 'notes (2).bin')]);
    expect(readFileSync(join(out, 'notes.bin')).equals(large)).toBe(true);
    expect(readFileSync(join(out, 'notes (2).bin')).equals(small)).toBe(true);
  });

  it('fetches each file as soon as the job hands it over, before the job ends', async () => {
    // A scripted service whose job reports item 0 at once and ends only after item 0's file was fetched
    // (or, for a client that waits for the end, after 8 polls: then the order below shows it).
    const files: Record<string, Buffer> = { '/files/first.jpg': Buffer.from('first file'), '/files/second.jpg': Buffer.from('second file') };
    const item = (name: string) => {
      const bytesOf = files[`/files/${name}`] ?? Buffer.alloc(0);
      return { url: `${fake.url}/files/${name}`, filename: name, size: bytesOf.length, checksum: md5Hex(bytesOf), contentType: 'image/jpeg' };
    };
    let polls = 0;
    const fake = await startFakeServer((request, response) => {
      const file = files[request.url];
      if (file !== undefined) {
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(file.length) });
        response.end(file);
      } else if (request.method === 'POST') {
        sendJson(response, 200, { result: { id: 'j', type: 'AssetDownloadBatchJob', state: 'RUNNING', progress: 0, dateCreated: '' } });
      } else {
        const fetched = fake.requests.some((seen) => seen.url === '/files/first.jpg');
        const done = fetched || ++polls >= 8;
        sendJson(response, 200, {
          result: done
            ? { id: 'j', state: 'COMPLETED', progress: 1, successes: { '0': item('first.jpg'), '1': item('second.jpg') } }
            : { id: 'j', state: 'RUNNING', progress: 0.5, successes: { '0': item('first.jpg') } },
        });
      }
    });
    try {
      const out = tempDir();
      const run = await cli(['download', 'a', 'b', '--server', fake.url, '--state', state, '--out', out], env);
      expect(run).toMatchObject({ code: 0, out: [join(out, 'first.jpg'), join(out, 'second.jpg')].join('\n') });
      expect(readFileSync(join(out, 'second.jpg'), 'utf8')).toBe('second file');
      const order = fake.requests.filter((seen) => seen.method === 'GET').map((seen) => (seen.url.startsWith('/files/') ? seen.url : 'poll'));
      // The first file was asked for while the job was still running: a poll came after it.
      expect(order.indexOf('/files/first.jpg')).toBeLessThan(order.lastIndexOf('poll'));
      expect(polls).toBeLessThan(8);
    } finally {
      await fake.close();
    }
  });

  it('fetches the files after a failed item while the job still renders, and reports the failure at the end', async () => {
    // A service of its own whose rendering of one photo waits for the test: the job cannot end before
    // the test lets it, so a file on disk before then was fetched while the job ran.
    let releaseHeld: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    let heldBytes: Buffer = Buffer.alloc(0);
    let heldStarted = false;
    const gatedRender: RenderTransformation = async (source, operations, inputSubtype, target) => {
      const bytesOf = 'bytes' in source ? source.bytes : readFileSync(source.path);
      if (bytesOf.equals(heldBytes)) {
        heldStarted = true;
        await held;
      }
      return renderTransformation(source, operations, inputSubtype, target);
    };
    const gated = await startTestService({}, { renderTransformation: gatedRender });
    try {
      const photos = await Promise.all([makeImage(1600, 1200), makeImage(1500, 1200), makeImage(1400, 1200)]);
      heldBytes = photos[2];
      const [first, second, last] = await Promise.all(photos.map(async (photo, index) => (await uploadNewAsset(gated, `/held/photo-${index}.jpg`, photo)).assetId));
      const out = tempDir();
      const args = ['download', first ?? '', 'no-such-asset', second ?? '', last ?? '', '--preset', 'Web (1000 px JPG)', '--server', gated.url, '--state', state, '--out', out];
      const running = cli(args, { ASSET_SYNC_TOKEN: await gated.token() });
      // The photo after the failed item is fetched while the last one is still rendering.
      await vi.waitFor(() => expect(existsSync(join(out, 'photo-1.jpg'))).toBe(true), { timeout: 20_000, interval: 20 });
      expect(heldStarted).toBe(true);
      expect(existsSync(join(out, 'photo-2.jpg'))).toBe(false);
      releaseHeld();
      const run = await running;
      expect(run.code).toBe(1);
      expect(run.out.split('\n')).toEqual([join(out, 'photo-0.jpg'), join(out, 'photo-1.jpg'), join(out, 'photo-2.jpg')]);
      // The failure is the last thing said, with its asset and stable code.
      expect(run.err.split('\n').at(-1)).toMatch(/^no-such-asset: .*No asset with id "no-such-asset"\. \[NOT_FOUND\]$/);
      for (const name of ['photo-0.jpg', 'photo-1.jpg', 'photo-2.jpg']) {
        expect(await sharp(join(out, name)).metadata()).toMatchObject({ format: 'jpeg', width: 1000 });
      }
    } finally {
      releaseHeld();
      await gated.dispose();
    }
  });

  it('refuses a checksum that is not an MD5 and writes nothing outside --out', async () => {
    // A hostile service whose job hands over a checksum made of path segments.
    const file = Buffer.from('hostile bytes');
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/files/x.jpg') {
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(file.length) });
        response.end(file);
      } else if (request.method === 'POST') {
        sendJson(response, 200, { result: { id: 'j', type: 'AssetDownloadBatchJob', state: 'RUNNING', progress: 0, dateCreated: '' } });
      } else {
        const item = { url: `${fake.url}/files/x.jpg`, filename: 'x.jpg', size: file.length, checksum: '/../../evil/', contentType: 'image/jpeg' };
        sendJson(response, 200, { result: { id: 'j', state: 'COMPLETED', progress: 1, successes: { '0': item } } });
      }
    });
    try {
      const parent = tempDir();
      const out = join(parent, 'out');
      // The folder the checksum points at exists, so a write through it would succeed.
      mkdirSync(join(parent, 'evil'), { recursive: true });
      const run = await cli(['download', 'a', '--server', fake.url, '--state', state, '--out', out], env);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/checksum: is not an MD5 \(32 hex digits\).*\[INVALID_RESPONSE\]/);
      expect(readdirSync(parent).sort()).toEqual(['evil', 'out']);
      expect(readdirSync(join(parent, 'evil'))).toEqual([]);
      expect(readdirSync(out)).toEqual([]);
      // Refused before any byte was asked for.
      expect(fake.requests.some((seen) => seen.url === '/files/x.jpg')).toBe(false);
    } finally {
      await fake.close();
    }
  });

  it('downloads a file whose name takes all 255 bytes, and the files after it', async () => {
    const longName = `${'n'.repeat(251)}.bin`;
    expect(Buffer.byteLength(longName)).toBe(255);
    const long = (await uploadNewAsset(service, `/dl/long/${longName}`, Buffer.from('long name'))).assetId;
    const after = (await uploadNewAsset(service, '/dl/long/after.txt', Buffer.from('after it'))).assetId;
    const out = tempDir();
    const run = await download([long, after, '--out', out]);
    expect(run.err).not.toContain('ENAMETOOLONG');
    expect(run.code).toBe(0);
    expect(run.out.split('\n')).toEqual([join(out, longName), join(out, 'after.txt')]);
    expect(readFileSync(join(out, longName), 'utf8')).toBe('long name');
    expect(readFileSync(join(out, 'after.txt'), 'utf8')).toBe('after it');
    expect(readdirSync(out).sort()).toEqual(['after.txt', longName].sort());
  });

  it('explains what it needs', async () => {
    expect((await download([])).code).toBe(2);
    expect((await download(['x', '--search', 'y'])).code).toBe(2);
    expect((await download(['x', '--preset', 'a', '--original'])).err).toContain('--preset and --original exclude each other');
    const unknown = await download([ids.photo ?? '', '--preset', 'Poster', '--out', tempDir()]);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining('No preset "Poster". The service offers: "Web (1000 px JPG)"') });
    const nothing = await download(['--search', 'no such thing', '--out', tempDir()]);
    expect(nothing).toMatchObject({ code: 1, err: 'No asset matches "no such thing".' });
    const missing = await download(['no-such-asset', '--out', tempDir()]);
    expect(missing).toMatchObject({ code: 1, err: expect.stringMatching(/^no-such-asset: .*No asset with id "no-such-asset"\. \[NOT_FOUND\]$/) });
  });
});

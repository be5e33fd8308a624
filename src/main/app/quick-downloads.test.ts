import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ApiClient } from '../api/index.js';
import type { QuickDownloadView, RecentQuickDownload } from '../../shared/bridge/quick-download.js';
import { clientFor } from '../../../test/support/api-client-service.js';
import { startTestService, type TestService } from '../../../test/support/test-service.js';
import { uploadNewAsset } from '../../../test/support/upload-helpers.js';
import { makeImage, makePdf } from '../../../test/support/media-fixtures.js';
import { AppError } from './app-error.js';
import { QuickDownloads, RECENT_LIMIT, renditionName } from './quick-downloads.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('quick downloads against the real service', () => {
  let service: TestService;
  let api: ApiClient;
  const ids: Record<string, string> = {};
  const bytes: Record<string, Buffer> = {};

  beforeAll(async () => {
    service = await startTestService();
    api = await clientFor(service);
    bytes.photo = await makeImage(2400, 1600);
    bytes.brief = await makePdf();
    ids.photo = (await uploadNewAsset(service, '/qd/quay photo.jpg', bytes.photo)).assetId;
    ids.brief = (await uploadNewAsset(service, '/qd/quay brief.pdf', bytes.brief)).assetId;
  });
  afterAll(async () => {
    api.close();
    await service.dispose();
  });

  /** A QuickDownloads on a fresh folder, recording its events and what it remembers. */
  function setup(options: { signedIn?: boolean } = {}) {
    const folder = join(tempDir(), 'Downloads');
    const events: QuickDownloadView[] = [];
    let recent: RecentQuickDownload[] = [];
    const revealed: string[] = [];
    let clock = Date.parse('2026-11-26T10:00:00.000Z');
    const quick = new QuickDownloads({
      api: () => {
        if (options.signedIn === false) throw new AppError('NOT_SIGNED_IN', 'Sign in first.');
        return api;
      },
      folder: () => folder,
      recent: () => recent,
      remember: (next) => {
        recent = next;
      },
      reveal: async (path) => {
        revealed.push(path);
      },
      // Every read moves the clock on, so every progress callback may send an event.
      now: () => (clock += 1000),
      onDownload: (view) => events.push(view),
      changed: () => undefined,
    });
    return { quick, folder, events, revealed, recent: () => recent };
  }

  it('finds assets by file name, case-insensitively, by name', async () => {
    const { quick } = setup();
    const found = await quick.search({ text: 'QUAY', limit: 10 });
    expect(found.map((result) => result.filename)).toEqual(['quay brief.pdf', 'quay photo.jpg']);
    expect(found[1]).toMatchObject({ assetId: ids.photo, fileType: 'IMAGE', dimensions: { width: 2400, height: 1600 }, size: bytes.photo?.length });
    // The service says which presets transform each file: all four make images of a photo, none of a PDF.
    expect(found.map((result) => result.presetIds?.length)).toEqual([0, 4]);
    expect(await quick.search({ text: 'no such thing', limit: 10 })).toEqual([]);
  });

  it('downloads through a preset: the image web-sized and named for it, the PDF said to be the original, with progress and a recent entry each', async () => {
    const { quick, folder, events, recent } = setup();
    await quick.refreshPresets();
    const web = quick.presets().find((preset) => preset.name === 'Web (1000 px JPG)');
    expect(web).toBeDefined();
    const photo = await quick.download({ assetId: ids.photo ?? '', presetId: web?.id ?? null });
    expect(photo).toMatchObject({ status: 'done', filename: 'quay photo (Web 1000 px JPG).jpg', presetName: 'Web (1000 px JPG)', note: null, path: join(folder, 'quay photo (Web 1000 px JPG).jpg'), error: null });
    expect(await sharp(join(folder, 'quay photo (Web 1000 px JPG).jpg')).metadata()).toMatchObject({ format: 'jpeg', width: 1000, height: 667 });
    const brief = await quick.download({ assetId: ids.brief ?? '', presetId: web?.id ?? null });
    expect(readFileSync(brief.path ?? '').equals(bytes.brief ?? Buffer.alloc(0))).toBe(true);
    expect(brief).toMatchObject({ filename: 'quay brief.pdf', presetId: null, presetName: 'Original', note: 'Web (1000 px JPG) does not apply to this file, so it arrived as it is.' });
    // The original after a rendition takes its own name: the rendition never held it.
    const original = await quick.download({ assetId: ids.photo ?? '', presetId: null });
    expect(original.path).toBe(join(folder, 'quay photo.jpg'));
    // Running first, done last, and the bytes never go backwards.
    const ofPhoto = events.filter((event) => event.id === photo.id);
    expect(ofPhoto[0]?.status).toBe('running');
    expect(ofPhoto.at(-1)).toMatchObject({ status: 'done', bytesDone: ofPhoto.at(-1)?.bytesTotal });
    expect(ofPhoto.map((event) => event.bytesDone)).toEqual([...ofPhoto.map((event) => event.bytesDone)].sort((a, b) => a - b));
    expect(recent().map((entry) => [entry.filename, entry.presetName])).toEqual([['quay photo.jpg', 'Original'], ['quay brief.pdf', 'Original']]);
    expect(readdirSync(folder).sort()).toEqual(['quay brief.pdf', 'quay photo (Web 1000 px JPG).jpg', 'quay photo.jpg']);
  });

  it('never writes over a file: the same bytes are kept as they are, a different file keeps its name', async () => {
    const { quick, folder, revealed, recent } = setup();
    const first = await quick.download({ assetId: ids.photo ?? '', presetId: null });
    expect(readFileSync(first.path ?? '').equals(bytes.photo ?? Buffer.alloc(0))).toBe(true);
    // The same file again: already there, nothing new.
    const again = await quick.download({ assetId: ids.photo ?? '', presetId: null });
    expect(again.path).toBe(first.path);
    writeFileSync(join(folder, 'quay brief.pdf'), 'a different file');
    const brief = await quick.download({ assetId: ids.brief ?? '', presetId: null });
    expect(brief.path).toBe(join(folder, 'quay brief (2).pdf'));
    expect(readFileSync(join(folder, 'quay brief.pdf'), 'utf8')).toBe('a different file');
    expect(readdirSync(folder).sort()).toEqual(['quay brief (2).pdf', 'quay brief.pdf', 'quay photo.jpg']);
    // One recent entry per asset, newest first.
    expect(recent().map((entry) => entry.assetId)).toEqual([ids.brief, ids.photo]);
    await quick.reveal({ downloadId: brief.id });
    expect(revealed).toEqual([join(folder, 'quay brief (2).pdf')]);
  });

  it('remembers the newest downloads only, the new one first', async () => {
    const { folder } = setup();
    const remembered = Array.from({ length: RECENT_LIMIT }, (_, index): RecentQuickDownload => ({ assetId: `old-${String(index)}`, filename: `old ${String(index)}.jpg`, presetId: null, presetName: 'Original', at: '2026-01-01T00:00:00.000Z' }));
    const quick = new QuickDownloads({
      api: () => api,
      folder: () => folder,
      recent: () => remembered,
      remember: (next) => remembered.splice(0, remembered.length, ...next),
      now: () => Date.now(),
      onDownload: () => undefined,
      changed: () => undefined,
    });
    await quick.download({ assetId: ids.photo ?? '', presetId: null });
    expect(remembered).toHaveLength(RECENT_LIMIT);
    expect(remembered[0]).toMatchObject({ assetId: ids.photo, filename: 'quay photo.jpg', presetId: null, presetName: 'Original' });
    expect(remembered.at(-1)?.assetId).toBe(`old-${String(RECENT_LIMIT - 2)}`);
  });

  it('fails with a code, a failed event and no file or recent entry', async () => {
    const { quick, folder, events, recent } = setup();
    await expect(quick.download({ assetId: ids.photo ?? '', presetId: 'no-such-preset' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(quick.download({ assetId: 'no-such-asset', presetId: null })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(events.at(-1)).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND' } });
    await expect(quick.download({ assetId: '', presetId: null })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(quick.download({ assetId: ids.photo ?? '', presetId: '' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(quick.search({ text: '   ', limit: 10 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(quick.search({ text: 'quay', limit: 1000 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(quick.reveal({ downloadId: 99 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(setup({ signedIn: false }).quick.search({ text: 'quay', limit: 10 })).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    expect(recent()).toEqual([]);
    expect(readdirSync(join(folder, '..'))).toEqual([]);
  });
});

describe('the name a rendition lands under', () => {
  it('is the asset\'s name with the preset\'s, and the rendition\'s extension', () => {
    expect(renditionName('photo-7.png', 'Web (1000 px JPG)', 'photo-7.jpg')).toBe('photo-7 (Web 1000 px JPG).jpg');
    expect(renditionName('Logo.svg', 'Social: 1080×1080 / crop', 'Logo.jpg')).toBe('Logo (Social 1080×1080 crop).jpg');
    expect(renditionName('.hidden', '***', 'x.png')).toBe('.hidden.png');
  });
});

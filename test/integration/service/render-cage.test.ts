import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestService, type ApiAnswer, type TestService } from '../../support/test-service.js';
import { downloadAsset, sendParts, uploadNewAsset } from '../../support/upload-helpers.js';
import { authorize, authorizeParams, exchangeCode, pkcePair } from '../../support/oauth-client.js';
import { expectApiError } from '../../support/expect-api-error.js';
import { fetchBytes, makeImage } from '../../support/media-fixtures.js';
import { heavySvg, nestedFormPdf, nestedUseSvg } from '../../support/hostile-svg.js';
import { until } from '../../support/until.js';
import { renderCageEvents, type RenderCageEvent } from '../../../src/service/render-cage/render-cage.js';

const shaOf = (previewUrl: string): string => /\/previews\/([0-9a-f]{64})\./.exec(previewUrl)?.[1] ?? '';
/** A sized variant's URL, rendered in the cage (an SVG's or a PNG's own preview is its bytes). */
const variantOf = (previewUrl: string, size: number): string => `${previewUrl}&size=${size}`;

/** A PNG whose header claims 100,000 × 100,000 pixels: an image bomb, refused before it is decoded. */
function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(100_001))), chunk('IEND', Buffer.alloc(0))]);
}

describe('the render cage: untrusted files are rendered with limits, apart from the service', () => {
  let service: TestService;
  let inbox: string;
  /** What happened, in order: the cage's starts and ends, and the answers the test got meanwhile. */
  const events: string[] = [];
  const onCage = (message: unknown): void => {
    const event = message as RenderCageEvent;
    events.push(event.phase === 'start' ? `start ${event.label}` : `${event.outcome ?? 'end'} ${event.label}`);
  };

  beforeAll(async () => {
    // Two render processes; a render may use 0.6 s of processor time (the heavy SVGs' thumbnails below need ~1.1 s).
    service = await startTestService({ render: { processes: 2, cpuMs: 600 } });
    subscribe(renderCageEvents.name, onCage);
    const foldersId: string = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const made = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'i', fieldId: foldersId, value: 'Inbox' }] });
    inbox = made.body.successes.i.result.id;
  });
  afterAll(async () => {
    unsubscribe(renderCageEvents.name, onCage);
    await service.dispose();
  });

  /** An anonymous visitor's request (a guest-upload link needs no account). */
  const anonymous = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const response = await fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };
  /** Sends a file through a fresh guest-upload link, as an anonymous visitor; answers the asset's id. */
  const guestUpload = async (filename: string, bytes: Buffer): Promise<string> => {
    const link = await service.api('POST', '/guest-uploads', { name: 'Drop', folderId: inbox });
    const key: string = link.body.result.key;
    const started = await anonymous('POST', `/public/guest-uploads/${key}/uploads`, { filename, size: bytes.length });
    expect(started.status, started.text).toBe(200);
    const parts = await sendParts(started.body.result.upload, bytes);
    const assetId: string = started.body.result.assetId;
    const done = await anonymous('POST', `/public/guest-uploads/${key}/completions`, { assetId, uploadId: started.body.result.upload.uploadId, parts });
    expect(done.status, done.text).toBe(200);
    return assetId;
  };
  const currentFile = async (assetId: string): Promise<any> => (await service.api('GET', `/assets/${assetId}`)).body.result.currentAssetFile;
  /** The preview's answer, fetched with the signed URL the asset had when uploaded. */
  const previewAnswer = async (previewUrl: string): Promise<ApiAnswer> => {
    const response = await fetch(previewUrl);
    const text = response.headers.get('content-type')?.includes('json') === true ? await response.text() : '';
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as unknown), text };
  };

  it("refuses an SVG of nested <use>s before libvips sees it: its preview reads PREVIEW_FAILED, for good", async () => {
    // 1.4 KB that asks for 100,000 full-page shapes: minutes of one libvips thread without the bound.
    const assetId = await guestUpload('nested.svg', nestedUseSvg(5, 10));
    const previewUrl: string = (await currentFile(assetId)).previewUrl;
    const answer = await previewAnswer(previewUrl);
    expectApiError(answer, 422, 'PREVIEW_FAILED', 'elements once its references');
    expect(answer.body.message).toMatch(/could not be made\. The SVG would draw [\d,]+ elements .* at most 50,000 are rendered\. The file itself can still be downloaded\./);
    // The asset says so too, and the file is kept and downloads as it was sent.
    const after = await currentFile(assetId);
    expect(after.previewUrl).toBeNull();
    expect(after.previewState).toBe('FAILED');
    expect(after.previewError).toMatchObject({ code: 'PREVIEW_FAILED', reason: 'SVG_TOO_COMPLEX' });
    const { response } = await downloadAsset(service, assetId);
    expect(Buffer.from(await response.arrayBuffer()).equals(nestedUseSvg(5, 10))).toBe(true);
    // Asked again (the same URL), the answer is the same, and nothing is rendered again.
    const before = events.length;
    expectApiError(await previewAnswer(previewUrl), 422, 'PREVIEW_FAILED');
    expect(events.slice(before).filter((event) => event.includes(shaOf(previewUrl)))).toEqual([]);
  });

  it('kills a render over its processor-time limit while searches, uploads, downloads and sign-in are answered; the preview then reads PREVIEW_FAILED', async () => {
    const { assetId: photoId } = await uploadNewAsset(service, '/cage/photo.jpg', await makeImage(1200, 800));
    // Two files within the expansion bound whose 256 px thumbnails each need ~1.1 s of processor time, sent anonymously,
    // and their previews asked for at once, as an attacker would.
    const hostile = await Promise.all([guestUpload('heavy-1.svg', heavySvg(15_000, 1)), guestUpload('heavy-2.svg', heavySvg(15_000, 2))]);
    const urls: string[] = await Promise.all(hostile.map(async (id) => variantOf((await currentFile(id)).previewUrl as string, 256)));
    const labels = urls.map(shaOf);
    const previews = urls.map((url) => previewAnswer(url));
    await until('both hostile renders to start in the cage', () => labels.every((label) => events.includes(`start ${label}`)), { timeoutMs: 20_000 });

    const answered = async (what: string, work: Promise<unknown>): Promise<void> => {
      await work;
      events.push(`answered ${what}`);
    };
    await Promise.all([
      answered(
        'download',
        downloadAsset(service, photoId).then(async ({ response }) => expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0)),
      ),
      answered(
        'search',
        service.api('POST', '/asset-searches', { criterion: { type: 'MATCH_ALL' }, sorts: [] }).then((answer) => expect(answer.status, answer.text).toBe(200)),
      ),
      answered('upload', uploadNewAsset(service, '/cage/notes.txt', Buffer.from('written while a render runs'))),
      answered(
        'sign-in',
        (async () => {
          const pkce = pkcePair();
          const { code } = await authorize(service, authorizeParams(service, pkce));
          expect((await exchangeCode(service, code, pkce.verifier)).status).toBe(200);
        })(),
      ),
    ]);

    const answers = await Promise.all(previews);
    for (const answer of answers) expectApiError(answer, 422, 'PREVIEW_FAILED', 'more than 0.6 s of processor time, so it was stopped');
    // Every answer came while both renders ran: after they started, before either was killed.
    for (const label of labels) {
      const started = events.indexOf(`start ${label}`);
      const killed = events.indexOf(`killed ${label}`);
      expect(killed, events.join('\n')).toBeGreaterThan(started);
      for (const what of ['download', 'search', 'upload', 'sign-in']) {
        expect(events.indexOf(`answered ${what}`), `${what} in\n${events.join('\n')}`).toBeGreaterThan(started);
        expect(events.indexOf(`answered ${what}`), `${what} in\n${events.join('\n')}`).toBeLessThan(killed);
      }
    }
    // Their thumbnails keep saying so, without another render; the SVGs themselves are still their previews.
    for (const url of urls) expectApiError(await previewAnswer(url), 422, 'PREVIEW_FAILED', 'processor time');
    for (const id of hostile) expect((await currentFile(id)).previewState).toBe('AVAILABLE');

    // The killed processes were replaced: the next preview is made.
    const { asset } = await uploadNewAsset(service, '/cage/after.jpg', await makeImage(300, 200));
    const { response, bytes } = await fetchBytes(variantOf(asset.currentAssetFile.previewUrl, 256));
    expect(response.status).toBe(200);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 256, height: 171 });
  });

  it('stops a PDF of nested forms (a million full-page fills) at the limit', async () => {
    const assetId = await guestUpload('forms.pdf', nestedFormPdf(6, 10));
    const answer = await previewAnswer((await currentFile(assetId)).previewUrl);
    expectApiError(answer, 422, 'PREVIEW_FAILED', 'more than 0.6 s of processor time');
    expect((await currentFile(assetId)).previewError).toMatchObject({ reason: 'TIME_LIMIT' });
  });

  it('still refuses an image bomb (a header claiming 10 gigapixels) before decoding it', async () => {
    const { asset } = await uploadNewAsset(service, '/cage/bomb.png', pngBomb());
    // Its header could not be read at upload (no dimensions): a preview is rendered, not its bytes served.
    expectApiError(await previewAnswer(asset.currentAssetFile.previewUrl), 422, 'PREVIEW_FAILED', 'pixel limit');
    expect((await currentFile(asset.id)).previewError).toMatchObject({ reason: 'UNREADABLE' });
  });
});

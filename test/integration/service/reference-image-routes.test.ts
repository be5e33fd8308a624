import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makeImage } from '../../support/media-fixtures.js';
import { nestedUseSvg } from '../../support/hostile-svg.js';
import { MAX_REFERENCE_IMAGE_BYTES } from '../../../src/service/reference-images/reference-image-routes.js';

describe('reference image uploads', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const newUpload = async (): Promise<{ key: string; url: string }> => {
    const { status, body } = await service.api('POST', '/reference-image-uploads');
    expect(status).toBe(200);
    return body.result;
  };
  const json = async (response: Response): Promise<any> => response.json();
  const put = (url: string, bytes: Buffer) => fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });

  it('answers a key and a signed URL, and keeps the image PUT there', async () => {
    const { key, url } = await newUpload();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const image = await makeImage(40, 30, { format: 'png' });
    const response = await put(url, image);
    expect(response.status).toBe(200);
    expect((await json(response)).result).toEqual({ key, size: image.length, contentType: 'image/png', width: 40, height: 30 });
    expect(readFileSync(join(service.dataDir, 'reference-images', key))).toEqual(image);
    const again = await put(url, image);
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('REFERENCE_IMAGE_ALREADY_UPLOADED');
  });

  it('refuses what is not an image, or too large, and keeps nothing', async () => {
    const { key, url } = await newUpload();
    const text = await put(url, Buffer.from('not an image at all'));
    expect(text.status).toBe(415);
    expect((await json(text)).code).toBe('NOT_AN_IMAGE');
    const large = await put(url, Buffer.alloc(MAX_REFERENCE_IMAGE_BYTES + 1));
    expect(large.status).toBe(413);
    expect(existsSync(join(service.dataDir, 'reference-images', key))).toBe(false);
    // The key is still good for a real image.
    expect((await put(url, await makeImage(8, 8))).status).toBe(200);
  });

  it('refuses an SVG whose references would blow up, saying why, before sharp sizes it', async () => {
    const { key, url } = await newUpload();
    const response = await put(url, nestedUseSvg(5, 10));
    expect(response.status).toBe(415);
    expect(await json(response)).toMatchObject({ code: 'NOT_AN_IMAGE', message: expect.stringMatching(/would draw [\d,]+ elements .*Send it as a raster image instead\./) });
    expect(existsSync(join(service.dataDir, 'reference-images', key))).toBe(false);
  });

  it('refuses an unsigned or tampered URL', async () => {
    const { key, url } = await newUpload();
    const unsigned = await put(`${service.url}/reference-images/${key}`, await makeImage(8, 8));
    expect((await json(unsigned)).code).toBe('INVALID_SIGNATURE');
    const other = (await newUpload()).key;
    const tampered = await put(url.replace(key, other), await makeImage(8, 8));
    expect(tampered.status).toBe(403);
  });

  it('needs a bearer token to ask for an upload', async () => {
    const response = await fetch(`${service.url}/reference-image-uploads`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});

/**
 * `GET /health` answers for this instance's stores: 200 while the database and the blob directory
 * answer, 503 naming the blob store while its directory is gone, and 200 again once it is back.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

describe('GET /health', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.dispose());

  it('says which store does not answer, without a token, and is ok again once it does', async () => {
    const ok = await fetch(`${service.url}/health`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toMatchObject({ status: 'ok', database: { status: 'ok', kind: 'sqlite' }, blobs: { status: 'ok', kind: 'directory' } });

    const blobs = join(service.dataDir, 'blobs');
    renameSync(blobs, `${blobs}.away`);
    try {
      const failing = await fetch(`${service.url}/health`);
      expect(failing.status).toBe(503);
      const body = (await failing.json()) as { status: string; database: unknown; blobs: { code: string; message: string } };
      expect(body).toMatchObject({ status: 'unavailable', database: { status: 'ok' }, blobs: { status: 'failing', kind: 'directory', code: 'ENOENT' } });
      // Public: the answer names the store, never its path.
      expect(body.blobs.message).not.toContain(service.dataDir);
    } finally {
      renameSync(`${blobs}.away`, blobs);
    }
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
  });
});

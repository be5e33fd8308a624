/**
 * An upload the service no longer has — swept after the client was away for longer than
 * `uploadAbandonAfter`, or its received bytes lost in a crash — can never be completed. The service
 * says UPLOAD_EXPIRED (never pads the lost bytes with zeros into a file), and the engine starts a new
 * upload for the same asset on its next pass instead of asking to complete the old one forever.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi } from '../../src/main/api/index.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, total } from '../support/two-way.js';
import { MiB, randomFile } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

describe('an upload whose bytes the service lost', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('is answered UPLOAD_EXPIRED, and the next pass uploads the file again to the same asset', async () => {
    let losses = 0;
    const losing = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.completeUpload = (completion) => {
        if (losses === 0) {
          // Every part was received and recorded; then the service's copy of the bytes disappears.
          losses++;
          const uploads = join(service.dataDir, 'uploads');
          for (const name of readdirSync(uploads)) rmSync(join(uploads, name));
        }
        return api.completeUpload(completion);
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Lost', wrapApi: losing }));
    try {
      const bytes = randomFile(17 * MiB); // two parts: completed by POST, not by the part PUT
      me.write('Video/cut.mov', bytes);
      const first = await me.once();
      expect(first.converged).toBe(false);
      expect(total(first, 'failed')).toBe(1);
      expect(me.h.db.prepare('SELECT reason, detail FROM not_synced').all()).toEqual([{ reason: 'UPLOAD_EXPIRED', detail: expect.stringContaining('were lost') }]);
      // The journal keeps the asset and forgets the upload that can no longer be completed.
      expect(me.h.db.prepare('SELECT asset_id IS NOT NULL AS asset, upload_id FROM uploads').all()).toEqual([{ asset: 1, upload_id: null }]);
      const [empty] = await me.h.assets();
      expect(empty?.checksum).toBeUndefined();

      // Failed items wait before their next try (per-item backoff); this test does not.
      me.h.db.prepare('UPDATE not_synced SET retry_at = 0').run();
      const second = await me.once();
      expect(second.converged).toBe(true);
      const assets = await me.h.assets();
      expect(assets).toHaveLength(1);
      expect(assets[0]).toMatchObject({ id: empty?.id, path: '/Lost/Video/cut.mov', checksum: md5Hex(bytes), size: bytes.length });
    } finally {
      await me.h.dispose();
    }
  });
});

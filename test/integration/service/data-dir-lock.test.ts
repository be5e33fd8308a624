import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../../support/test-service.js';

describe('lockDataDir on a served data directory', () => {
  it('keeps a second service off a served data directory until the first stops', async () => {
    const first = await startTestService();
    try {
      await expect(first.restart()).rejects.toMatchObject({ code: 'DATA_DIR_IN_USE' });
      expect(first.running.ctx.db.open).toBe(true);
      await first.stop();
      const second = await first.restart();
      expect((await second.api('GET', '/health')).status).toBe(200);
      await second.dispose();
    } finally {
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});

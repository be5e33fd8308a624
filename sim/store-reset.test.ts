import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test/support/test-service.js';
import { storeDump, storeSnapshot } from './store-reset.js';

describe('storeSnapshot', () => {
  let service: TestService;

  beforeEach(async () => {
    service = await startTestService();
  });
  afterEach(() => service.dispose());

  it('puts every row back as it was, change log included, and the service works on', async () => {
    const db = service.running.ctx.db;
    const restore = storeSnapshot(db);
    const before = storeDump(db);
    const fieldId = (await service.api('GET', '/folder-settings')).body.result.fieldId as string;
    const folder = { batchItemId: 'a', fieldId, value: 'Brand', parentId: null };
    expect((await service.api('POST', '/field-option-batches', { items: [folder] })).body.successes.a).toBeDefined();
    // A folder row, its change-log row (a trigger's), a token's: the store moved on.
    expect(storeDump(db)).not.toBe(before);

    restore();
    expect(storeDump(db)).toBe(before);
    // The folder is gone: creating it again is no conflict.
    const again = await service.api('POST', '/field-option-batches', { items: [folder] });
    expect(again.status).toBe(200);
    expect(again.body.successes.a).toBeDefined();
  });
});

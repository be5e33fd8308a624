import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test/support/test-service.js';
import { storeCheckpoint, storeDump, storeSnapshot } from './store-reset.js';

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
    // The full-text indexes, derived from the rows put back, agree with them (FTS5 throws otherwise).
    for (const index of ['file_name_trigrams', 'value_trigrams']) db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
    // The folder is gone: creating it again is no conflict.
    const again = await service.api('POST', '/field-option-batches', { items: [folder] });
    expect(again.status).toBe(200);
    expect(again.body.successes.a).toBeDefined();
  });

  it('rolls a checkpoint back seed after seed, and puts the rows back if the savepoint was lost', async () => {
    const db = service.running.ctx.db;
    const restore = storeCheckpoint(db);
    const before = storeDump(db);
    const fieldId = (await service.api('GET', '/folder-settings')).body.result.fieldId as string;
    for (const value of ['Brand', 'Brand', 'Press']) {
      const created = await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'a', fieldId, value, parentId: null }] });
      expect(created.body.successes.a).toBeDefined();
      expect(storeDump(db)).not.toBe(before);
      restore();
      expect(storeDump(db)).toBe(before);
    }
    // What SQLite does on some I/O errors: the whole transaction, the savepoint with it, rolled back.
    await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'a', fieldId, value: 'Lost', parentId: null }] });
    db.exec('ROLLBACK');
    expect(db.inTransaction).toBe(false);
    await service.api('POST', '/field-option-batches', { items: [{ batchItemId: 'a', fieldId, value: 'Kept', parentId: null }] });
    restore();
    expect(storeDump(db)).toBe(before);
    expect(db.inTransaction).toBe(true);
  });
});

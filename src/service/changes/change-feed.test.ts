import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open-database.js';
import { settingsRepo } from '../settings/settings-repo.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { ChangeFeed } from './change-feed.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('ChangeFeed', () => {
  const opened: { db: Db; dir: string; feed: ChangeFeed }[] = [];
  const setup = (keepPerAccount: number) => {
    const dir = tempDir('asset-sync-change-feed-');
    const db = openDatabase(join(dir, 'service.db'));
    const account = accountsRepo(db).createAccount('a', 'A', new Date(0).toISOString());
    const insert = db.prepare("INSERT INTO change_log (account_id, seq, kind, stamp) VALUES (?, ?, 'ASSET', ?)");
    const feed = new ChangeFeed(db, settingsRepo(db), { keepPerAccount });
    opened.push({ db, dir, feed });
    return { feed, db, accountId: account.id, add: (seq: number) => insert.run(account.id, seq, `a${seq}`) };
  };
  afterEach(() => {
    for (const { db, feed } of opened.splice(0)) {
      feed.close();
      db.close();
    }
  });

  it('refuses a cursor older than the entries it keeps, and keeps answering newer ones', () => {
    const { feed, accountId, add } = setup(3);
    const start = feed.cursorOf(feed.head(accountId));
    for (let seq = 1; seq <= 6; seq++) add(seq);
    const third = feed.cursorOf({ seq: 3, stamp: 'a3' });
    const fifth = feed.cursorOf({ seq: 5, stamp: 'a5' });
    expect(feed.parse(start, accountId)).toEqual({ seq: 0, stamp: '0' });
    feed.prune();
    expect(() => feed.parse(start, accountId)).toThrow(expect.objectContaining({ code: 'CHANGE_CURSOR_UNKNOWN', message: expect.stringContaining('older than') }));
    expect(() => feed.parse(third, accountId)).toThrow(expect.objectContaining({ code: 'CHANGE_CURSOR_UNKNOWN', message: expect.stringContaining('older than') }));
    expect(feed.parse(fifth, accountId)).toEqual({ seq: 5, stamp: 'a5' });
    expect(feed.since(accountId, 5)).toEqual({ head: { seq: 6, stamp: 'a6' }, kinds: ['ASSET'] });
  });

  it('wakes an account\'s listeners when a write to its log is over, once per transaction, and not for one rolled back', async () => {
    const { feed, db, accountId, add } = setup(100);
    const other = accountsRepo(db).createAccount('b', 'B', new Date(0).toISOString());
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    let woken = 0;
    let otherWoken = 0;
    const unsubscribe = feed.subscribe(accountId, () => woken++);
    feed.subscribe(other.id, () => otherWoken++);
    db.transaction(() => {
      add(1);
      add(2);
    })();
    // Not inside the writing statement or transaction: on the next microtask.
    expect(woken).toBe(0);
    await turn();
    expect(woken).toBe(1);
    expect(() =>
      db.transaction(() => {
        add(3);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    await turn();
    expect(woken).toBe(1);
    add(3);
    await turn();
    expect(woken).toBe(2);
    unsubscribe();
    add(4);
    await turn();
    expect(woken).toBe(2);
    expect(otherWoken).toBe(0);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { openEventStream, type OpenedStream } from '../../support/event-stream.js';
import { addUser } from '../../support/test-users.js';
import { uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { hashPassword } from '../../../src/service/accounts/passwords.js';
import type { Timers } from '../../../src/service/clock.js';

describe('change feed [ours]', () => {
  let service: TestService;
  let token: string;
  let foldersId: string;
  const opened: OpenedStream[] = [];
  const open = async (query = '', headers: Record<string, string> = {}, as = token): Promise<OpenedStream> => {
    const stream = await openEventStream(`${service.url}/change-events${query}`, as, headers);
    opened.push(stream);
    return stream;
  };
  const runJob = async (path: string, body: unknown): Promise<any> => {
    const created = await service.api('POST', path, body);
    expect(created.status, created.text).toBe(200);
    return waitForJob(service, path, created.body.result.id);
  };

  beforeAll(async () => {
    service = await startTestService();
    token = await service.token();
    foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
  });
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.close();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('is advertised in the public service metadata', async () => {
    const answer = await fetch(`${service.url}/.well-known/asset-sync`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ changeFeed: { path: '/change-events', protocol: 'server-sent-events' } });
  });

  it('answers HEAD with the stream\'s headers and ends, instead of holding the request open', async () => {
    const answer = await fetch(`${service.url}/change-events`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await answer.text()).toBe('');
  });

  it('starts with a cursor, then says at once which kinds changed and where to resume', async () => {
    const stream = await open();
    const ready = await stream.next();
    expect(ready.event).toBe('ready');
    expect(ready.data.cursor).toBe(ready.id);
    await uploadNewAsset(service, '/Feed/one.txt', Buffer.from('one'));
    // The job creates the folder and the asset, the completion adds the file: one event or several.
    const kinds = new Set<string>();
    while (!kinds.has('ASSET_FILE')) {
      const change = await stream.next();
      expect(change.event).toBe('change');
      expect(change.id).toBe(change.data.cursor);
      expect(change.data.cursor).not.toBe(ready.data.cursor);
      expect(Object.keys(change.data).sort()).toEqual(['cursor', 'kinds']);
      for (const kind of change.data.kinds) kinds.add(kind);
    }
    expect([...kinds].sort()).toEqual(['ASSET', 'ASSET_FILE', 'FOLDER']);
  });

  it('resumes from a cursor: what changed since arrives first, from a batch job as from anyone', async () => {
    const uploaded = await uploadNewAsset(service, '/Feed/two.txt', Buffer.from('two'));
    const first = await open();
    const cursor = (await first.next()).data.cursor;
    first.close();
    await runJob('/asset-metadata-edit-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [uploaded.assetId] }, metadataFieldValueUpdates: [{ fieldId: foldersId, type: 'BY_VALUES', values: ['/Feed'], operation: 'ADD' }] });
    const resumed = await open(`?cursor=${encodeURIComponent(cursor)}`);
    expect((await resumed.next()).data.cursor).toBe(cursor);
    expect((await resumed.next()).data.kinds).toEqual(['ASSET']);
    // The EventSource way: Last-Event-ID.
    const byHeader = await open('', { 'last-event-id': cursor });
    expect((await byHeader.next()).event).toBe('ready');
    expect((await byHeader.next()).data.kinds).toEqual(['ASSET']);
  });

  it('reports a permanent deletion as its own kind', async () => {
    const uploaded = await uploadNewAsset(service, '/Feed/gone.txt', Buffer.from('gone'));
    const stream = await open();
    await stream.next();
    await runJob('/asset-deletion-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [uploaded.assetId] } });
    expect((await stream.next()).data.kinds).toContain('ASSET_DELETED');
  });

  it('refuses a cursor it cannot vouch for with 410 CHANGE_CURSOR_UNKNOWN', async () => {
    const current = (await (await open()).next()).data.cursor as string;
    const [epoch, seq, stamp] = current.split('.');
    const refused = ['garbage', `someoneelse.${seq}.${stamp}`, `${epoch}.${Number(seq) + 1000}.${stamp}`, `${epoch}.${seq}.ffffffffffff`];
    for (const cursor of refused) {
      const answer = await open(`?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(410);
      expect(answer.body, cursor).toMatchObject({ status: 410, code: 'CHANGE_CURSOR_UNKNOWN', message: expect.stringContaining('reconcile in full') });
    }
  });

  it('needs a token', async () => {
    const answer = await fetch(`${service.url}/change-events`);
    expect(answer.status).toBe(401);
  });

  it('tells a user of another account nothing of this account, not even through the numbers', async () => {
    const { ctx } = service.running;
    const now = ctx.nowIso();
    const other = ctx.accounts.createAccount('other', 'Other', now);
    const otherFolders = ctx.fields.create(other.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' }, now);
    const outsider = ctx.accounts.createUser('outsider@example.com', 'Outsider', await hashPassword('their password'), now);
    ctx.accounts.addMembership(other.id, outsider.id, 'admin');
    const outsiderToken = await ctx.tokens.issue({ sub: outsider.id, scope: 'subdomain:other' }, 3600);
    const stream = await open('', {}, outsiderToken);
    const ready = await stream.next();
    expect(ready.data.cursor).toMatch(/\.0\.0$/);
    await uploadNewAsset(service, '/Secret/plans.txt', Buffer.from('secret'));
    // The outsider's own change comes next: nothing of /Secret came before it, and its number is 1.
    const created = await fetch(`${service.url}/field-option-batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${outsiderToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ batchItemId: 'f', fieldId: otherFolders.id, value: 'Theirs' }] }),
    });
    expect(created.status).toBe(200);
    const change = await stream.next();
    expect(change.data).toEqual({ cursor: expect.stringMatching(/\.1\.[0-9a-f]+$/), kinds: ['FOLDER'] });
  });

  it('ends the stream of a member removed from the account', async () => {
    const { userId, token: memberToken } = await addUser(service, 'leaving@example.com', 'member');
    const stream = await open('', {}, memberToken);
    await stream.next();
    const accountId: string = (await service.api('GET', '/current-user', undefined, memberToken)).body.result.accountId;
    service.running.ctx.accounts.removeMember(accountId, userId);
    await uploadNewAsset(service, '/Feed/after-leaving.txt', Buffer.from('x'));
    await expect(stream.next()).rejects.toThrow('the stream ended');
  });

  it('ends a stream whose token a security change of the account revoked', async () => {
    const { token: memberToken } = await addUser(service, 'revoked@example.com', 'member');
    const stream = await open('', {}, memberToken);
    await stream.next();
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD', 'GOOGLE'] })).status).toBe(200);
    await uploadNewAsset(service, '/Feed/after-revoking.txt', Buffer.from('x'));
    await expect(stream.next()).rejects.toThrow('the stream ended');
    // The admin's token went too: the tests after this one need a new one.
    token = await service.token();
  });

  it('keeps cursors across a restart of the service', async () => {
    const stream = await open();
    const cursor = (await stream.next()).data.cursor;
    stream.close();
    await uploadNewAsset(service, '/Feed/before-restart.txt', Buffer.from('x'));
    await service.stop();
    service = await service.restart();
    token = await service.token();
    const resumed = await open(`?cursor=${encodeURIComponent(cursor)}`);
    expect((await resumed.next()).event).toBe('ready');
    expect((await resumed.next()).data.kinds).toEqual(expect.arrayContaining(['ASSET', 'ASSET_FILE']));
  });
});

describe('change feed streams on the service\'s timers [ours]', () => {
  it('sends its keep-alives and ends the stream when the timers say, leaving none behind', async () => {
    // Timers that fire only when the test says, by their delay.
    const pending = new Map<number, { ms: number; callback: () => void }>();
    let made = 0;
    const timers: Timers = {
      setTimer: (ms, callback) => {
        const id = made++;
        pending.set(id, { ms, callback });
        return () => pending.delete(id);
      },
    };
    const fire = (ms: number): void => {
      for (const [id, timer] of [...pending]) {
        if (timer.ms !== ms) continue;
        pending.delete(id);
        timer.callback();
      }
    };
    const service = await startTestService({}, { timers });
    const controller = new AbortController();
    try {
      const response = await fetch(`${service.url}/change-events`, { headers: { authorization: `Bearer ${await service.token(undefined, 3600)}` }, signal: controller.signal });
      expect(response.status).toBe(200);
      if (response.body === null) throw new Error('no stream');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const readUntil = async (wanted: (seen: string) => boolean): Promise<boolean> => {
        while (!wanted(text)) {
          const chunk = await reader.read();
          if (chunk.done) return false;
          text += decoder.decode(chunk.value, { stream: true });
        }
        return true;
      };
      expect(await readUntil((seen) => seen.includes('event: ready'))).toBe(true);
      // The keep-alive and the end, waiting on the injected timers.
      expect([...pending.values()].map((timer) => timer.ms).sort((a, b) => a - b)).toEqual([20_000, 15 * 60_000]);
      expect(text).not.toContain(': keep-alive');
      fire(20_000);
      expect(await readUntil((seen) => seen.includes(': keep-alive'))).toBe(true);
      // The next keep-alive is armed; the end cancels it.
      expect(pending.size).toBe(2);
      fire(15 * 60_000);
      expect(await readUntil(() => false)).toBe(false);
      expect(pending.size).toBe(0);
    } finally {
      controller.abort();
      await service.dispose();
    }
  });
});

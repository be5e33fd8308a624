import { describe, expect, it } from 'vitest';
import { settledReports, type ReportsInput } from './settled-reports.js';
import type { LocalEntry, RemoteEntry, SyncedEntry } from './sync-types.js';

const local = (relPath: string, md5: string | null = 'aa'): LocalEntry => ({ relPath, size: 2, mtimeMs: 1, ino: 7, dev: 1, md5 });
const synced = (relPath: string, md5 = 'aa', assetId = 'A1'): SyncedEntry => ({ relPath, assetId, md5, size: 2, mtimeMs: 1, ino: 7, dev: 1 });
const remote = (relPath: string, md5 = 'aa', assetId = 'A1'): RemoteEntry => ({ relPath, assetId, filename: relPath.slice(relPath.lastIndexOf('/') + 1), fileId: 'F1', md5, size: 2, dateModified: '', dateAdded: '' });

function input(overrides: Partial<ReportsInput>): ReportsInput {
  return {
    reports: ['a.txt'],
    local: new Map(),
    synced: new Map(),
    remote: { entries: new Map() },
    waiting: new Set(),
    plan: { operations: [], heldDeletes: [] },
    ...overrides,
  };
}

describe('settledReports', () => {
  it('clears a report whose path both sides now agree on', () => {
    const agreed = input({ local: new Map([['a.txt', local('a.txt')]]), synced: new Map([['a.txt', synced('a.txt')]]), remote: { entries: new Map([['a.txt', remote('a.txt')]]) } });
    expect(settledReports(agreed)).toEqual(['a.txt']);
  });

  it('clears a report whose path is gone from the disk, the synced state and the service', () => {
    expect(settledReports(input({}))).toEqual(['a.txt']);
  });

  it('keeps a report while the sides differ, or the service has what the disk lacks', () => {
    const edited = input({ local: new Map([['a.txt', local('a.txt', 'bb')]]), synced: new Map([['a.txt', synced('a.txt')]]), remote: { entries: new Map([['a.txt', remote('a.txt')]]) } });
    expect(settledReports(edited)).toEqual([]);
    const unread = input({ local: new Map([['a.txt', local('a.txt', null)]]), synced: new Map([['a.txt', synced('a.txt')]]), remote: { entries: new Map([['a.txt', remote('a.txt')]]) } });
    expect(settledReports(unread)).toEqual([]);
    const newer = input({ local: new Map([['a.txt', local('a.txt')]]), synced: new Map([['a.txt', synced('a.txt')]]), remote: { entries: new Map([['a.txt', remote('a.txt', 'cc')]]) } });
    expect(settledReports(newer)).toEqual([]);
    const toDownload = input({ remote: { entries: new Map([['a.txt', remote('a.txt')]]) } });
    expect(settledReports(toDownload)).toEqual([]);
    const toUpload = input({ local: new Map([['a.txt', local('a.txt')]]) });
    expect(settledReports(toUpload)).toEqual([]);
  });

  it('judges nothing without the service side, or with the asset unknown', () => {
    const agreedLocally = { local: new Map([['a.txt', local('a.txt')]]), synced: new Map([['a.txt', synced('a.txt')]]) };
    const { remote: _remote, ...withoutRemote } = input(agreedLocally);
    expect(settledReports(withoutRemote)).toEqual([]);
    expect(settledReports(input({ remote: undefined }))).toEqual([]);
    expect(settledReports(input({ ...agreedLocally, remote: { entries: new Map([['a.txt', remote('a.txt')]]), unknownAssets: new Set(['A1']) } }))).toEqual([]);
  });

  it('leaves alone what waits out a retry and what the plan touches', () => {
    expect(settledReports(input({ waiting: new Set(['a.txt']) }))).toEqual([]);
    const moving = input({
      reports: ['a.txt', 'b.txt'],
      plan: { operations: [{ kind: 'MOVE', from: 'a.txt', to: 'b.txt', assetId: 'A1', local: { ...local('b.txt'), md5: 'aa' } }], heldDeletes: [] },
    });
    expect(settledReports(moving)).toEqual([]);
    const held = input({ plan: { operations: [], heldDeletes: [{ kind: 'DELETE', relPath: 'a.txt', assetId: 'A1' }] } });
    expect(settledReports(held)).toEqual([]);
  });
});

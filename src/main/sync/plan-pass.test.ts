import { describe, expect, it } from 'vitest';
import { exactNames } from '../local/local-names.js';
import { planPass, type PassLook } from './plan-pass.js';
import type { LocalEntry, Plan, PlanInput, RemoteEntry, SyncedEntry } from './sync-types.js';

const file = (relPath: string, ino: number, md5 = 'm'): LocalEntry => ({ relPath, size: 1, mtimeMs: 1, ino, dev: 1, md5 });
const row = (relPath: string, assetId: string, ino: number): SyncedEntry => ({ ...file(relPath, ino), md5: 'm', assetId });
const remote = (relPath: string, assetId: string): RemoteEntry => ({ relPath, assetId, filename: relPath, fileId: `${assetId}-f`, md5: 'm', size: 1, dateModified: '', dateAdded: '' });
const byPath = <T extends { relPath: string }>(...entries: T[]): Map<string, T> => new Map(entries.map((one) => [one.relPath, one]));

const look = (over: Partial<PassLook>): PassLook => {
  const local = over.local ?? new Map<string, LocalEntry>();
  return {
    local,
    snapshot: local,
    unstable: new Set(),
    pending: new Map(),
    scanned: { local, unstable: new Set() },
    sawWholeRoot: true,
    synced: new Map(),
    busy: new Set(),
    view: { entries: new Map() },
    lastKnown: undefined,
    remoteAnswered: true,
    uploads: [],
    conflicts: [],
    deletesConfirmed: false,
    reports: [],
    outlived: [],
    now: 0,
    nameKey: exactNames,
    lookedAt: 100,
    lastLocalEventAt: undefined,
    resumed: 0,
    ...over,
  };
};

describe('planPass', () => {
  it('runs the planner it is given on the shaped input, and filters its output', () => {
    const seen: string[] = [];
    const planner = (input: PlanInput): Plan => {
      seen.push(...(input.conflictCopies ?? []), ...(input.busy ?? []));
      return { operations: [{ kind: 'DELETE', relPath: 'a.txt', assetId: 'a' }], heldDeletes: [] };
    };
    const conflicts = [{ id: 1, relPath: 'b.txt', assetId: 'b', copyPath: 'b (conflict).txt' }];
    const planned = planPass(look({ local: byPath(file('b (conflict).txt', 2)), conflicts, busy: new Set(['c.txt']), lastLocalEventAt: 100 }), planner);
    expect(seen).toEqual(['b (conflict).txt', 'c.txt']);
    // The disk changed while the pass looked: the deletion waits; the plan itself is kept whole.
    expect(planned.operations).toEqual([]);
    expect(planned.deletionsWaiting).toBe(1);
    expect(planned.plan.operations).toHaveLength(1);
    expect(planned.endAbandoned).toBe(true);
  });

  it('holds a file of an own unsettled upload that moved on disk, and leaves its asset to the resume', () => {
    const moved = { ...file('A2/b.txt', 10), md5: null };
    const uploads = [{ kind: 'NEW' as const, relPath: 'A/b.txt', assetId: 'own', local: moved }];
    const local = byPath(moved);
    const planned = planPass(look({ local, scanned: { local, unstable: new Set() }, uploads, view: { entries: byPath(remote('A/b.txt', 'own')) } }));
    expect(planned.operations).toEqual([]);
    expect(planned.heldForUpload).toBe(1);
    expect(planned.endAbandoned).toBe(true);
    expect([...(planned.view?.unknownAssets ?? [])]).toEqual(['own']);
  });

  it('answers the reports and successors that are settled, and a version upload whose journal entry goes too', () => {
    const synced = byPath(row('a.txt', 'a', 1));
    const planned = planPass(look({
      synced,
      view: { entries: byPath(remote('a.txt', 'a')) },
      reports: ['a.txt'],
      uploads: [{ kind: 'VERSION', relPath: 'a.txt', assetId: 'a', local: file('a.txt', 1) }],
      outlived: ['a.txt', 'kept.txt'],
      local: byPath(file('a.txt', 1), file('kept.txt', 3)),
    }));
    // The new file goes up; the synced one agrees on both sides.
    expect(planned.plan.operations.map((op) => [op.kind, 'relPath' in op ? op.relPath : op.from])).toEqual([['UPLOAD_NEW', 'kept.txt']]);
    expect(planned.settled).toEqual([{ relPath: 'a.txt', version: true }]);
    expect(planned.successorsSettled).toEqual(['a.txt']);
  });
});

import { describe, expect, it } from 'vitest';
import { emptyReport } from './pass-report.js';
import type { PassPlan } from './plan-pass.js';
import { recordPlan, type RecordPlanDeps } from './record-plan.js';

describe('recordPlan', () => {
  it('writes the plan\'s bookkeeping in order and counts what it plans', () => {
    const calls: string[] = [];
    const deps: RecordPlanDeps = {
      conflicts: {
        originalMoved: (_root, assetId, from, to) => {
          calls.push(`original ${assetId} ${from}→${to}`);
        },
        copyMoved: (id, to) => {
          calls.push(`copy ${String(id)}→${to}`);
        },
        resolved: (id) => {
          calls.push(`resolved ${String(id)}`);
        },
      },
      issues: {
        holdDeletes: (_root, deletes) => {
          calls.push(`hold ${deletes.map((entry) => `${entry.relPath}:${entry.direction ?? ''}`).join(',')}`);
        },
        clearHeld: () => {
          calls.push('clear held');
        },
        cleared: (_root, relPath) => {
          calls.push(`cleared ${relPath}`);
        },
      },
      journal: {
        finish: (_root, relPath) => {
          calls.push(`finish ${relPath}`);
        },
      },
      successors: {
        drop: (_root, relPath) => {
          calls.push(`drop ${relPath}`);
        },
      },
      log: (event) => {
        calls.push(`log ${event.message}`);
      },
    };
    const planned: PassPlan = {
      plan: { operations: [], heldDeletes: [{ kind: 'DELETE', relPath: 'd.txt', assetId: 'd' }] },
      operations: [{ kind: 'DELETE', relPath: 'e.txt', assetId: 'e' }],
      deletionsWaiting: 1,
      conflictChanges: [{ kind: 'ORIGINAL_MOVED', assetId: 'a', from: 'a.txt', to: 'b.txt' }, { kind: 'RESOLVED', id: 2 }],
      settled: [{ relPath: 'v.txt', version: true }, { relPath: 'r.txt', version: false }],
      successorsSettled: ['s.txt'],
      endAbandoned: true,
      heldForUpload: 0,
      view: undefined,
    };
    const report = emptyReport('root');
    recordPlan(deps, 'root', planned, report);
    expect(calls).toEqual([
      'original a a.txt→b.txt',
      'resolved 2',
      'hold d.txt:REMOTE',
      'log 1 deletion wait: the folder changed while it was being looked at',
      'cleared v.txt',
      'finish v.txt',
      'cleared r.txt',
      'drop s.txt',
    ]);
    expect(report.heldDeletes).toBe(1);
    expect(report.operations).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { backingOff, leftToResume, resumes } from './resumable-uploads.js';
import { SyncError } from '../model/sync-error.js';

describe('resumable-uploads', () => {
  it('names the paths still waiting out a retry', () => {
    const reports = [{ rel_path: 'a', retry_at: 200 }, { rel_path: 'b', retry_at: 100 }, { rel_path: 'c', retry_at: null }];
    expect([...backingOff(reports, 100)]).toEqual(['a']);
  });

  it('resumes the whole journal first, then only what is left and not backing off', () => {
    expect(resumes(undefined, new Set(['a']))('a')).toBe(true);
    const later = resumes(new Set(['a', 'b']), new Set(['a']));
    expect(['a', 'b', 'c'].filter(later)).toEqual(['b']);
  });

  it('leaves to the planner a file that changed since its upload began; keeps undecided failures and the entries that waited', () => {
    const outcomes = [
      { relPath: 'changed', result: { ok: false as const, error: new SyncError('LOCAL_FILE_CHANGED', 'changed') } },
      { relPath: 'undecided', result: { ok: false as const, error: new Error('EACCES') } },
      { relPath: 'done', result: { ok: true as const } },
    ];
    expect([...leftToResume(outcomes, new Set(['waited', 'other']), new Set(['waited']))]).toEqual(['undecided', 'waited']);
  });
});

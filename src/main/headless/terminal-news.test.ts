import { describe, expect, it } from 'vitest';
import { appState, folderView } from '../../../test/support/app-state-builder.js';
import { TerminalNews } from './terminal-news.js';

const offline = { kind: 'offline', server: 'http://127.0.0.1:7480', since: '2026-03-03T12:00:00Z', nextTryAt: null, error: { name: 'ApiError', code: 'NETWORK', message: 'connection refused' } } as const;

describe('what the terminal says while the app runs', () => {
  it('says when the service goes away and when it is back, once each', () => {
    const news = new TerminalNews();
    expect(news.lines({ type: 'state', state: appState({}) })).toEqual([]);
    expect(news.lines({ type: 'state', state: appState({ connection: offline }) })).toEqual([
      'Offline: http://127.0.0.1:7480 cannot be reached (connection refused). Changes wait here and go once it is back.',
    ]);
    expect(news.lines({ type: 'state', state: appState({ connection: offline }) })).toEqual([]);
    expect(news.lines({ type: 'state', state: appState({}) })).toEqual(['Back online: catching up with what waited.']);
  });

  it('says what appeared that needs the user, and where in the window to act', () => {
    const news = new TerminalNews();
    news.lines({ type: 'state', state: appState({ folders: [folderView({ id: 'f1', path: '/home/ana/Asset Sync' })] }) });
    expect(news.lines({ type: 'held-deletions', held: { folderId: 'f1', deletedOnComputer: 0, deletedInService: 60, count: 60, sample: [] } })).toEqual([
      '60 deletions held in “Asset Sync” (60 deleted in the service): nothing is deleted until you confirm or restore them under Held deletions in the window.',
    ]);
    const side = { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null };
    const conflict = { id: 1, folderId: 'f1', relPath: 'logo.psd', copyPath: 'logo (conflict).psd', detectedAt: '', mine: side, theirs: side };
    expect(news.lines({ type: 'conflicts', conflicts: [conflict, { ...conflict, id: 2, relPath: 'b.psd' }] })).toEqual([
      '2 conflicts: logo.psd and 1 other changed on both sides. Choose which to keep under Conflicts in the window.',
    ]);
    expect(news.lines({ type: 'sign-in-needed', server: 'https://assets.example', reason: null })).toEqual(['Sign in to https://assets.example again: syncing waits until you do (Settings in the window).']);
  });
});

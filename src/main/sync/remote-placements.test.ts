import { describe, expect, it } from 'vitest';
import type { RemoteAssetRow, RemoteFolderRow } from '../db/remote-repo.js';
import { IgnoreRules } from '../local/index.js';
import { caseFoldedNames, disambiguate, localNameOf, numberedName } from '../local/local-names.js';
import { directoriesOf, remotePlacements } from './remote-placements.js';

const asset = (assetId: string, filename: string, folders: string[]): RemoteAssetRow => ({ assetId, fileId: `${assetId}-f`, filename, md5: `md5-${assetId}`, size: 1, dateModified: '', dateAdded: '', folders });
const folder = (optionId: string, relDir: string, parentId: string | null = null): RemoteFolderRow => ({ optionId, parentId, value: relDir.slice(relDir.lastIndexOf('/') + 1), relDir });
const rules = new IgnoreRules();
const ignores = (relPath: string, isDirectory: boolean): boolean => rules.ignores(relPath, isDirectory);

describe('local names of remote names', () => {
  it.each([
    ['logo.png', 'logo.png'],
    ['../../evil', '.._.._evil'],
    ['a/b', 'a_b'],
    ['..', '__'],
    ['nul\0byte', 'nul_byte'],
    [' lead and trail ', '_lead and trail_'],
    ['', '_'],
  ])('%j → %j', (remote, local) => {
    expect(localNameOf(remote, 'linux')).toBe(local);
  });

  it('tells clashing names apart by key order, around names already real', () => {
    const names = disambiguate([
      { key: 'b', name: 'logo.png' },
      { key: 'a', name: 'logo.png' },
      { key: 'c', name: 'logo (2).png' },
      { key: 'd', name: 'logo.png' },
    ]);
    expect(Object.fromEntries(names)).toEqual({ a: 'logo.png', b: 'logo (3).png', c: 'logo (2).png', d: 'logo (4).png' });
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.env', 2)).toBe('.env (2)');
  });
});

describe('remotePlacements', () => {
  it('puts an asset in every mapped folder, and assets without a folder at the top of a `/` root', () => {
    const entries = remotePlacements([asset('x', 'x.png', ['o1', 'o2']), asset('y', 'y.png', []), asset('z', 'z.png', ['elsewhere'])], {
      rootOption: null,
      folders: [folder('o1', 'One'), folder('o2', 'One/Two', 'o1')],
      ignores,
    });
    expect([...entries.keys()].sort()).toEqual(['One/Two/x.png', 'One/x.png', 'y.png']);
  });

  it('leaves unfiled assets out of a sub-folder root, and maps the root option to its top', () => {
    const entries = remotePlacements([asset('x', 'x.png', ['root']), asset('y', 'y.png', [])], { rootOption: 'root', folders: [], ignores });
    expect([...entries.keys()]).toEqual(['x.png']);
  });

  it('disambiguates same-named files stably, and a file named like a sub-folder', () => {
    const rows = [asset('b2', 'logo.png', ['o']), asset('a1', 'logo.png', ['o']), asset('c3', 'Sub', ['o'])];
    const scope = { rootOption: null, folders: [folder('o', 'Brand'), folder('s', 'Brand/Sub', 'o')], ignores };
    const first = remotePlacements(rows, scope);
    expect(Object.fromEntries([...first].map(([path, entry]) => [path, entry.assetId]))).toEqual({ 'Brand/logo.png': 'a1', 'Brand/logo (2).png': 'b2', 'Brand/Sub (2)': 'c3' });
    expect(remotePlacements([...rows].reverse(), scope)).toEqual(first);
  });

  it('on a disk that folds case, tells apart names that differ only in case, each keeping its spelling', () => {
    const rows = [asset('b2', 'Logo.png', ['o']), asset('a1', 'logo.png', ['o']), asset('c3', 'LOGO (2).png', ['o']), asset('d4', 'sub', ['o'])];
    const scope = { rootOption: null, folders: [folder('o', 'Brand'), folder('s', 'Brand/Sub', 'o')], ignores, nameKey: caseFoldedNames };
    const names = Object.fromEntries([...remotePlacements(rows, scope)].map(([path, entry]) => [entry.assetId, path]));
    expect(names).toEqual({ a1: 'Brand/logo.png', b2: 'Brand/Logo (3).png', c3: 'Brand/LOGO (2).png', d4: 'Brand/sub (2)' });
    // The same assets on a disk that tells case apart keep their names.
    expect(remotePlacements(rows, { ...scope, nameKey: undefined }).has('Brand/Logo.png')).toBe(true);
  });

  it('numbers a file apart from a folder only this disk has, as from a folder of the service\'s (simulation seed 87154)', () => {
    // `A2/C` on disk holds a conflict copy (never uploaded), so no option names it; the service has a file `C` in `A2`.
    const rows = [asset('f', 'C', ['a2']), asset('g', 'D', ['a2'])];
    const scope = { rootOption: null, folders: [folder('a2', 'A2')], ignores };
    const localDirs = directoriesOf(['A2/C/c (conflict 2026-01-01 001047).txt', 'A2/D.txt', 'top.txt']);
    expect([...remotePlacements(rows, { ...scope, localDirs }).keys()].sort()).toEqual(['A2/C (2)', 'A2/D']);
    // Once the folder is gone from disk the file takes its own name back.
    expect([...remotePlacements(rows, { ...scope, localDirs: directoriesOf(['A2/D.txt']) }).keys()].sort()).toEqual(['A2/C', 'A2/D']);
  });

  it('lists the directories that hold files, every level, the root\'s top left out', () => {
    expect([...directoriesOf(['a/b/c.txt', 'a/d.txt', 'top.txt', 'a/b/e/f.txt'])].sort()).toEqual(['a', 'a/b', 'a/b/e']);
  });

  it('never maps to the engine directory or ignored names', () => {
    const entries = remotePlacements([asset('a', '.asset-sync', []), asset('b', '.DS_Store', []), asset('c', 'draft.tmp', []), asset('d', 'ok.txt', [])], { rootOption: null, folders: [], ignores });
    expect([...entries.keys()]).toEqual(['ok.txt']);
  });
});

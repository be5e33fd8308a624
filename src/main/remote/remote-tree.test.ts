import { describe, expect, it } from 'vitest';
import type { FieldOption } from '../../shared/api/resources.js';
import type { RemoteFolderRow } from '../db/remote-repo.js';
import { caseFoldedNames } from '../sync/local-names.js';
import { diffFolderTrees, walkRemoteTree } from './remote-tree.js';

const option = (id: string, value: string): FieldOption => ({ id, fieldId: 'f', value, position: 0, leaf: false, numberOfChildren: 0, parent: null });
const row = (optionId: string, relDir: string, parentId: string | null = null): RemoteFolderRow => ({ optionId, parentId, value: relDir.slice(relDir.lastIndexOf('/') + 1), relDir });

describe('walkRemoteTree', () => {
  it('lists children per parent from the root option down, with safe and distinct names', async () => {
    const children: Record<string, FieldOption[]> = {
      root: [option('a', 'Brand'), option('b', '../up'), option('c', 'Same'), option('d', 'Same')],
      a: [option('a1', 'Logos')],
    };
    const asked: (string | null)[] = [];
    const tree = await walkRemoteTree(
      {
        listFieldOptionChildren: async (_field, parent) => {
          asked.push(parent);
          return children[parent ?? ''] ?? [];
        },
      },
      'f',
      'root',
      (relPath) => relPath === 'Same (2)',
    );
    expect(tree.map((folder) => [folder.optionId, folder.relDir, folder.parentId])).toEqual([
      ['a', 'Brand', null],
      ['a1', 'Brand/Logos', 'a'],
      ['b', '.._up', null],
      ['c', 'Same', null],
    ]);
    expect(asked).not.toContain(null);
  });

  it('on a disk that folds case, tells apart folder names that differ only in case', async () => {
    const children: Record<string, FieldOption[]> = { '': [option('b', 'brand'), option('a', 'Brand'), option('c', 'Other')] };
    const api = { listFieldOptionChildren: async (_field: string, parent: string | null) => children[parent ?? ''] ?? [] };
    const never = (): boolean => false;
    const folded = await walkRemoteTree(api, 'f', null, never, caseFoldedNames);
    expect(folded.map((folder) => [folder.optionId, folder.relDir])).toEqual([
      ['b', 'brand (2)'],
      ['a', 'Brand'],
      ['c', 'Other'],
    ]);
    expect((await walkRemoteTree(api, 'f', null, never)).map((folder) => folder.relDir)).toEqual(['brand', 'Brand', 'Other']);
  });
});

describe('diffFolderTrees', () => {
  it('names creations, renames, moves and removals, not the folders that moved along with a parent', () => {
    const before = [row('a', 'Old'), row('a1', 'Old/Sub', 'a'), row('b', 'Gone'), row('c', 'Stay'), row('c1', 'Stay/Child', 'c')];
    const after = [row('a', 'New'), row('a1', 'New/Sub', 'a'), row('c', 'Stay'), row('c1', 'New/Child', 'a'), row('d', 'Fresh')];
    expect(diffFolderTrees(before, after)).toEqual([
      { kind: 'MOVED', from: 'Old', to: 'New', optionId: 'a' },
      { kind: 'MOVED', from: 'Stay/Child', to: 'New/Child', optionId: 'c1' },
      { kind: 'CREATED', relDir: 'Fresh', optionId: 'd' },
      { kind: 'REMOVED', relDir: 'Gone', optionId: 'b' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { FieldOption } from '../../shared/api/resources.js';
import type { RemoteFolderRow } from '../db/remote-repo.js';
import { caseFoldedNames } from '../local/local-names.js';
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

  it('on a disk that folds case, twins (names that differ only in case) share one directory, whatever their ids', async () => {
    const children: Record<string, FieldOption[]> = { '': [option('b', 'brand'), option('a', 'Brand'), option('c', 'Other')] };
    const api = { listFieldOptionChildren: async (_field: string, parent: string | null) => children[parent ?? ''] ?? [] };
    const never = (): boolean => false;
    const folded = await walkRemoteTree(api, 'f', null, never, caseFoldedNames);
    // Spelled as the first in code-unit order: the ids (b before a) decide nothing.
    expect(folded.map((folder) => [folder.optionId, folder.relDir])).toEqual([
      ['a', 'Brand'],
      ['b', 'Brand'],
      ['c', 'Other'],
    ]);
    const swapped = { listFieldOptionChildren: async () => [option('a', 'brand'), option('b', 'Brand')] };
    expect((await walkRemoteTree(swapped, 'f', null, never, caseFoldedNames)).map((folder) => [folder.optionId, folder.relDir])).toEqual([
      ['b', 'Brand'],
      ['a', 'Brand'],
    ]);
    expect((await walkRemoteTree(api, 'f', null, never)).map((folder) => folder.relDir)).toEqual(['brand', 'Brand', 'Other']);
  });

  it('names twins as the disk spells the directory, and merges one child name under twin parents', async () => {
    const children: Record<string, FieldOption[]> = { '': [option('up', 'A'), option('low', 'a')], up: [option('upC', 'C')], low: [option('lowC', 'C'), option('lowD', 'D')] };
    const api = { listFieldOptionChildren: async (_field: string, parent: string | null) => children[parent ?? ''] ?? [] };
    const asked: string[] = [];
    const spelled = async (relDir: string): Promise<string | undefined> => {
      asked.push(relDir);
      return relDir === 'A' ? 'a' : undefined;
    };
    const tree = await walkRemoteTree(api, 'f', null, () => false, caseFoldedNames, spelled);
    expect(tree.map((folder) => [folder.optionId, folder.relDir, folder.parentId])).toEqual([
      ['up', 'a', null],
      ['low', 'a', null],
      ['lowC', 'a/C', 'low'],
      ['upC', 'a/C', 'up'],
      ['lowD', 'a/D', 'low'],
    ]);
    // Asked only about twins.
    expect(asked).toEqual(['A', 'a/C']);
  });

  it('keeps numbering two values that make one local name under one parent (no twins)', async () => {
    const api = { listFieldOptionChildren: async () => [option('x', 'a:b'), option('y', 'a_b')] };
    const tree = await walkRemoteTree(api, 'f', null, () => false, caseFoldedNames);
    expect(new Set(tree.map((folder) => folder.relDir)).size).toBe(2);
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

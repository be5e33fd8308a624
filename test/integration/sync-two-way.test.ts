/**
 * Every row of the DESIGN.md §3 table, in both directions, with two clients (two folders, two state
 * dirs) on one real service: what one does reaches the other byte for byte, moves stay moves (no
 * download), deletions reach the other side's trash, and an edit beats a deletion either way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, colleague, startTwoClients, total, type Client } from '../support/two-way.js';

describe('two-way sync between two clients', () => {
  let service: TestService;
  let a: Client;
  let b: Client;
  let settle: () => Promise<void>;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    service = await startTestService();
    ({ a, b, settle, dispose } = await startTwoClients(service, '/TwoWay'));
  });
  afterAll(async () => {
    await dispose();
    await service.dispose();
  });

  it('new files, nested folders and binary content reach the other client byte for byte', async () => {
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256));
    a.write('top.txt', 'top');
    a.write('Brand/Logos/logo.svg', '<svg/>');
    a.write('Brand/Logos/empty.txt', '');
    a.write('Café/naïve 🎨.bin', binary);
    await settle();
    expect(b.tree()).toEqual(a.tree());
    expect(Object.keys(b.tree()).sort()).toEqual(['Brand/Logos/empty.txt', 'Brand/Logos/logo.svg', 'Café/naïve 🎨.bin', 'top.txt']);
    expect(readFileSync(join(b.h.folder, 'Café/naïve 🎨.bin')).equals(binary)).toBe(true);
  });

  it('both directions: a content change, a rename and a move travel without re-downloading moves', async () => {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      from.write('top.txt', `edited by ${from === a ? 'A' : 'B'}`);
      await settle();
      expect(to.read('top.txt')).toBe(`edited by ${from === a ? 'A' : 'B'}`);
    }
    const id = await assetAt(a.h, '/TwoWay/top.txt');

    a.write('renamed.txt', a.read('top.txt'));
    a.remove('top.txt');
    expect((await a.once()).converged).toBe(true);
    const renamed = await b.once();
    expect(total(renamed, 'localMoved')).toBe(1);
    expect(total(renamed, 'downloaded')).toBe(0);
    expect(b.exists('top.txt')).toBe(false);
    expect(b.read('renamed.txt')).toBe('edited by B');

    b.write('Brand/renamed.txt', b.read('renamed.txt'));
    b.remove('renamed.txt');
    expect((await b.once()).converged).toBe(true);
    const moved = await a.once();
    expect(total(moved, 'localMoved')).toBe(1);
    expect(total(moved, 'downloaded')).toBe(0);
    expect(a.read('Brand/renamed.txt')).toBe('edited by B');
    expect(await assetAt(a.h, '/TwoWay/Brand/renamed.txt')).toBe(id);
    await settle();
    expect(b.tree()).toEqual(a.tree());
  });

  it('a deletion on one side sends the file on the other side to its trash, both ways', async () => {
    a.remove('Brand/Logos/logo.svg');
    await settle();
    expect(b.exists('Brand/Logos/logo.svg')).toBe(false);
    expect(readFileSync(join(b.h.trashDir, 'files/logo.svg'), 'utf8')).toBe('<svg/>');
    expect(readFileSync(join(b.h.trashDir, 'info/logo.svg.trashinfo'), 'utf8')).toContain(`Path=${encodeURI(join(b.h.folder, 'Brand/Logos/logo.svg'))}`);

    b.remove('Brand/Logos/empty.txt');
    await settle();
    expect(a.exists('Brand/Logos/empty.txt')).toBe(false);
    expect(existsSync(join(a.h.trashDir, 'files/empty.txt'))).toBe(true);
    expect(b.tree()).toEqual(a.tree());
  });

  it('an edit beats a deletion, whichever side deleted', async () => {
    a.write('keep-me.txt', 'v1');
    await settle();
    // A deletes and syncs first (the asset goes to the bin); B edited meanwhile: B's edit comes back.
    a.remove('keep-me.txt');
    await a.once();
    b.write('keep-me.txt', 'v2 from B');
    await settle();
    expect(a.read('keep-me.txt')).toBe('v2 from B');
    expect(b.read('keep-me.txt')).toBe('v2 from B');
    // A edits and syncs first; B deleted meanwhile: the file comes back to B.
    a.write('keep-me.txt', 'v3 from A');
    await a.once();
    b.remove('keep-me.txt');
    await settle();
    expect(b.read('keep-me.txt')).toBe('v3 from A');
    expect(b.tree()).toEqual(a.tree());
  });

  it('an asset in two folders appears in both; same-named assets get stable names', async () => {
    const people = colleague(service, a.h.api);
    const id = await people.upload('/TwoWay/Shared/one.txt', 'in two folders');
    await people.addFolder(id, '/TwoWay/Other');
    const first = await people.upload('/TwoWay/Logos/logo.png', 'first logo');
    const second = await people.upload('/TwoWay/Logos/logo.png', 'second logo');
    await settle();
    for (const side of [a, b]) {
      expect(side.read('Shared/one.txt')).toBe('in two folders');
      expect(side.read('Other/one.txt')).toBe('in two folders');
      const [low, high] = [first, second].sort();
      expect(side.read('Logos/logo.png')).toBe(low === first ? 'first logo' : 'second logo');
      expect(side.read('Logos/logo (2).png')).toBe(high === first ? 'first logo' : 'second logo');
    }
    // Stable: more passes change nothing.
    for (const side of [a, b]) expect((await side.once()).reports.every((report) => report.operations === 0)).toBe(true);
    // An edit of one placement reaches the other.
    a.write('Other/one.txt', 'edited in Other');
    await settle();
    expect(b.read('Shared/one.txt')).toBe('edited in Other');
    expect(a.read('Shared/one.txt')).toBe('edited in Other');
  });
});

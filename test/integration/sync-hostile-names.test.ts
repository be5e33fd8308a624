/**
 * Names the service returns can never write outside the root (DESIGN.md §3, §4.7). The local service
 * refuses `/`, `..` and control characters itself, so a foreign server is played by rewriting names in
 * its database: `../../evil.txt`, `a/b.txt`, `..`, a tab, a leading space, an over-long name, `CON`,
 * the engine's own `.asset-sync`, the user's `.assetsyncignore`, and a folder called `../up`. Each
 * lands inside the root under a safe, stable name (or, for the engine's own names, not at all), and
 * the next pass has nothing to do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRootMarker, NodeFileSystem } from '../../src/main/local/index.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, colleague, treeOf } from '../support/two-way.js';

describe('hostile names from the service', () => {
  let service: TestService;
  let scratch: SyncHarness;
  const long = `${'x'.repeat(300)}.txt`;
  const names: [string, string][] = [
    ['../../evil.txt', '.._.._evil.txt'],
    ['a/b.txt', 'a_b.txt'],
    ['..', '__'],
    ['tab\there.txt', 'tab_here.txt'],
    [' spaced.txt', '_spaced.txt'],
    ['CON', process.platform === 'win32' ? 'CON_' : 'CON'],
  ];

  beforeAll(async () => {
    service = await startTestService();
    scratch = await startSyncHarness(service, { remotePath: '/Scratch' });
    const people = colleague(service, scratch.api);
    const db = service.running.ctx.db;
    const rename = db.prepare("UPDATE asset_files SET filename = ? WHERE asset_id = ?");
    const touch = db.prepare("UPDATE assets SET date_last_modified = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
    const hostile = [...names.map(([remote]) => remote), long, '.asset-sync', '.assetsyncignore'];
    for (const [index, name] of hostile.entries()) {
      const id = await people.upload(`/Hostile/file${index}.txt`, `content of ${JSON.stringify(name)}`);
      rename.run(name, id);
      touch.run(id);
    }
    const nested = await people.upload('/Hostile/Up/inside.txt', 'under a hostile folder');
    db.prepare('UPDATE field_options SET value = ? WHERE id = ?').run('../up', await people.folder('/Hostile/Up'));
    touch.run(nested);
  });
  afterAll(async () => {
    await scratch.dispose();
    await service.dispose();
  });

  it('keeps every file inside the root under a safe name, and stays at rest', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Hostile' }));
    try {
      me.write('.assetsyncignore', '# my own rules\n');
      const result = await me.once();
      expect(result.converged, JSON.stringify(result.reports)).toBe(true);
      const files = treeOf(me.h.folder);
      for (const [remote, local] of names) expect(files[local]).toBe(`content of ${JSON.stringify(remote)}`);
      const longLocal = Object.keys(files).find((name) => name.startsWith('xxx'));
      expect(Buffer.byteLength(longLocal ?? '')).toBeLessThanOrEqual(255);
      expect(files['.._up/inside.txt']).toBe('under a hostile folder');
      // The engine's own names are never written from the service.
      expect(readFileSync(join(me.h.folder, '.assetsyncignore'), 'utf8')).toBe('# my own rules\n');
      expect((await readRootMarker(new NodeFileSystem(), me.h.folder))?.rootId).toBe(me.h.engine.roots()[0]?.id);
      // Nothing outside the root.
      expect(existsSync(join(me.h.folder, '../../evil.txt'))).toBe(false);
      expect(existsSync(join(dirname(me.h.folder), 'evil.txt'))).toBe(false);
      expect(existsSync(join(dirname(me.h.folder), 'up'))).toBe(false);
      // Stable names: the next pass neither downloads nor uploads anything.
      const again = await me.once();
      expect(again.reports.every((report) => report.operations === 0)).toBe(true);
      expect((await me.h.assets()).filter((asset) => asset.path.startsWith('/Hostile/')).length).toBe(names.length + 4);
    } finally {
      await me.h.dispose();
    }
  });
});

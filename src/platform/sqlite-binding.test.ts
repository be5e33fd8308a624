import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  PACKAGED_ADDON,
  chooseSqliteBinding,
  electronNativeFiles,
  installedBetterSqlite3Version,
  projectRootOf,
  readNativeStamp,
  sqliteOptions,
  stampMismatch,
  type BindingFacts,
  type NativeStamp,
} from './sqlite-binding.js';
import { tempDir } from '../../test/support/temp-dir.js';

const stamp: NativeStamp = { electron: '45.4.1', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' };
const files = electronNativeFiles('/repo');
const inElectron: BindingFacts = {
  electron: '45.4.1',
  packaged: false,
  resourcesPath: '/opt/Asset Sync/resources',
  projectRoot: '/repo',
  betterSqlite3: '12.11.1',
  platform: 'linux',
  arch: 'x64',
  exists: (path) => path === files.addon || path === join('/opt/Asset Sync/resources', PACKAGED_ADDON),
  readStamp: (path) => (path === files.stamp ? stamp : undefined),
};

describe('which better-sqlite3 addon a process loads', () => {
  it('under Node: the default build in node_modules (no nativeBinding)', () => {
    expect(chooseSqliteBinding({ ...inElectron, electron: undefined })).toEqual({ kind: 'node' });
    // This very test runs on Node: the options leave the default alone, and a database opens.
    expect(sqliteOptions()).toEqual({});
  });

  it('in Electron from the project: the build in build/electron-native/, when its stamp fits', () => {
    expect(chooseSqliteBinding(inElectron)).toEqual({ kind: 'file', path: files.addon });
    expect(files.addon).toBe(join('/repo', 'build', 'electron-native', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
  });

  it('in Electron from the project: missing or stale builds are named, with the command that fixes them', () => {
    expect(chooseSqliteBinding({ ...inElectron, readStamp: () => undefined })).toEqual({
      kind: 'missing',
      reason: 'better-sqlite3 has no build for Electron 45.4.1: it has not been built (npm run rebuild:electron)',
    });
    expect(chooseSqliteBinding({ ...inElectron, electron: '46.0.0' })).toEqual({
      kind: 'missing',
      reason: 'better-sqlite3 has no build for Electron 46.0.0: it was built for electron 45.4.1, this is 46.0.0 (npm run rebuild:electron)',
    });
    expect(chooseSqliteBinding({ ...inElectron, betterSqlite3: '12.12.0' }).kind).toBe('missing');
    expect(chooseSqliteBinding({ ...inElectron, arch: 'arm64' }).kind).toBe('missing');
    expect(chooseSqliteBinding({ ...inElectron, exists: () => false })).toMatchObject({ kind: 'missing', reason: expect.stringContaining('incomplete') });
  });

  it('in a packaged app: resources/native/better_sqlite3.node, whatever the project holds', () => {
    expect(chooseSqliteBinding({ ...inElectron, packaged: true, readStamp: () => undefined })).toEqual({ kind: 'file', path: join('/opt/Asset Sync/resources', PACKAGED_ADDON) });
    expect(chooseSqliteBinding({ ...inElectron, packaged: true, exists: () => false })).toEqual({ kind: 'missing', reason: 'the app was packaged without native/better_sqlite3.node' });
  });

  it('a stamp fits only when all of Electron, better-sqlite3, platform and arch match', () => {
    expect(stampMismatch(stamp, stamp)).toBeUndefined();
    expect(stampMismatch(stamp, { ...stamp, platform: 'darwin' })).toBe('it was built for platform linux, this is darwin (npm run rebuild:electron)');
  });

  it('reads a stamp from disk, and takes a broken one for none', () => {
    const dir = tempDir('sqlite-stamp-');
    writeFileSync(join(dir, 'good.json'), JSON.stringify(stamp));
    writeFileSync(join(dir, 'partial.json'), JSON.stringify({ electron: '45.4.1' }));
    writeFileSync(join(dir, 'broken.json'), '{"electron":');
    expect(readNativeStamp(join(dir, 'good.json'))).toEqual(stamp);
    expect(readNativeStamp(join(dir, 'partial.json'))).toBeUndefined();
    expect(readNativeStamp(join(dir, 'broken.json'))).toBeUndefined();
    expect(readNativeStamp(join(dir, 'absent.json'))).toBeUndefined();
  });

  it('the chosen file is what better-sqlite3 loads through nativeBinding (a build laid out like the rebuild’s)', () => {
    // Node's own addon stands in for Electron's: the layout and the loading path are what is tested.
    const root = tempDir('sqlite-native-');
    writeFileSync(join(root, 'package.json'), '{}');
    const layout = electronNativeFiles(root);
    mkdirSync(dirname(layout.addon), { recursive: true });
    const nodeAddon = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    copyFileSync(nodeAddon, layout.addon);
    const version = installedBetterSqlite3Version();
    writeFileSync(layout.stamp, JSON.stringify({ electron: '45.4.1', betterSqlite3: version, platform: process.platform, arch: process.arch }));
    const choice = chooseSqliteBinding({
      ...inElectron,
      projectRoot: projectRootOf(join(root, 'dist', 'service', 'db')),
      betterSqlite3: version,
      platform: process.platform,
      arch: process.arch,
      exists: () => true,
      readStamp: readNativeStamp,
    });
    expect(choice).toEqual({ kind: 'file', path: layout.addon });
    if (choice.kind !== 'file') return;
    const db = new Database(':memory:', { nativeBinding: choice.path });
    expect(db.prepare('SELECT 40 + 2 AS answer').get()).toEqual({ answer: 42 });
    db.close();
  });
});

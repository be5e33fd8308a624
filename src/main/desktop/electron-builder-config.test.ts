import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ELECTRON_ADDON, ELECTRON_NATIVE_DIR, PACKAGED_ADDON } from '../../platform/sqlite-binding.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder (which reads this same file with it); it ships no types.
const yaml = require('js-yaml') as { load(text: string): unknown };

function config(): Record<string, any> {
  return yaml.load(readFileSync(`${root}electron-builder.yml`, 'utf8')) as Record<string, any>;
}

describe('electron-builder.yml', () => {
  it('is valid against electron-builder’s own schema', () => {
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const valid = validate(config());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('a misspelt key fails the same check (the check can fail)', () => {
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate({ ...config(), linux: { ...config().linux, targt: 'AppImage' } })).toBe(false);
  });

  it('builds AppImage and deb, dmg and nsis, with the app id, product name, icons and no file associations', () => {
    const c = config();
    expect(c.appId).toBe('com.assetsync.desktop');
    expect(c.productName).toBe('Asset Sync');
    expect(c.linux.target).toEqual(['AppImage', 'deb']);
    expect(c.mac.target).toBe('dmg');
    expect(c.win.target).toBe('nsis');
    expect(c.fileAssociations).toBeUndefined();
    for (const icon of [c.linux.icon, c.mac.icon, c.win.icon]) expect(existsSync(`${root}${icon}`)).toBe(true);
    expect(c.extraMetadata.main).toBe('dist/main/desktop/main.js');
  });

  it('is what npm run dist packages, after building better-sqlite3 for Electron', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.scripts.dist).toContain('electron-builder --config electron-builder.yml');
    expect(pkg.scripts.dist.indexOf('npm run rebuild:electron')).toBeGreaterThan(-1);
    expect(pkg.scripts.dist.indexOf('npm run rebuild:electron')).toBeLessThan(pkg.scripts.dist.indexOf('electron-builder'));
    expect(pkg.scripts['rebuild:electron']).toBe('node resources/rebuild-electron-native.js');
    expect(existsSync(`${root}resources/rebuild-electron-native.js`)).toBe(true);
  });

  it('ships the Electron build of better-sqlite3 where the packaged app looks for it, and never rebuilds node_modules in place', () => {
    const c = config();
    // A rebuild in place would leave node_modules with Electron's ABI: the tests and the CLI (Node) would break.
    expect(c.npmRebuild).toBe(false);
    expect(c.extraResources).toContainEqual({ from: join(ELECTRON_NATIVE_DIR, ELECTRON_ADDON), to: PACKAGED_ADDON });
  });
});

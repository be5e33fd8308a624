/**
 * bin/asset-sync.js runs the bundle of the build (dist/bundle/cli.js, resources/build-cli.js) when it
 * is there and not older than tsc's dist/cli.js, else dist/cli.js itself: a `tsc` alone after a change
 * never runs a stale bundle. Checked on a copy of the shim beside stand-in builds that say which ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

const shim = fileURLToPath(new URL('../../bin/asset-sync.js', import.meta.url));

/** A package with the shim and the stand-in builds given; answers what `asset-sync` printed. */
function run(builds: { compiledAt?: number; bundledAt?: number }): { out: string; code: number | null } {
  const root = tempDir('asset-sync-entry-');
  mkdirSync(join(root, 'bin'));
  copyFileSync(shim, join(root, 'bin', 'asset-sync.js'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }');
  const standIn = (file: string, said: string, at: number): void => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, `export async function main() { console.log(${JSON.stringify(said)}); return 0; }\n`);
    utimesSync(file, at, at);
  };
  if (builds.compiledAt !== undefined) standIn(join(root, 'dist', 'cli.js'), 'compiled', builds.compiledAt);
  if (builds.bundledAt !== undefined) standIn(join(root, 'dist', 'bundle', 'cli.js'), 'bundled', builds.bundledAt);
  const result = spawnSync(process.execPath, [join(root, 'bin', 'asset-sync.js'), 'help'], { encoding: 'utf8' });
  return { out: result.stdout.trim(), code: result.status };
}

describe('the asset-sync command entry', () => {
  it('runs the bundle when it was made after tsc compiled', () => {
    expect(run({ compiledAt: 1_000, bundledAt: 2_000 })).toEqual({ out: 'bundled', code: 0 });
  });

  it('runs the compiled build when it is newer than the bundle, or there is no bundle', () => {
    expect(run({ compiledAt: 2_000, bundledAt: 1_000 })).toEqual({ out: 'compiled', code: 0 });
    expect(run({ compiledAt: 2_000 })).toEqual({ out: 'compiled', code: 0 });
  });

  it('says how to build when dist/ is missing', () => {
    expect(run({ bundledAt: 1_000 }).code).toBe(70);
  });
});

/**
 * What does not sync, and says why, while everything else does (DESIGN.md §3, §5 "not synced" list):
 * an unreadable file, symlinks (never followed: SYMLINK), and ignored files (built-in patterns and the
 * root's `.assetsyncignore`), which are never uploaded and never reported. Through the CLI against the
 * real service.
 */
import { chmodSync, chownSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { cli, runCliChild } from '../support/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';

/** The uid/gid to run the CLI as so that mode 000 really denies reading: ourselves, or `nobody` when we are root. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.platform === 'win32' || process.getuid === undefined) return undefined;
  if (process.getuid() !== 0) return { uid: process.getuid(), gid: process.getgid?.() ?? userInfo().gid };
  // Root reads a mode-000 file anyway; the CLI runs as nobody (65534 on Linux) for this test.
  return { uid: 65534, gid: 65534 };
}

describe('files that do not sync', () => {
  let service: TestService;
  let env: Record<string, string>;
  const put = (folder: string, relPath: string, content: string): void => {
    mkdirSync(join(folder, relPath, '..'), { recursive: true });
    writeFileSync(join(folder, relPath), content);
  };
  /** Current file names of the assets under a top folder of the service, sorted. */
  const remoteNames = (topFolder: string): string[] =>
    service.running.ctx.db
      .prepare<[string, string], { filename: string }>(
        `SELECT f.filename FROM assets a JOIN asset_files f ON f.id = a.current_file_id
         JOIN asset_values v ON v.asset_id = a.id JOIN field_options o ON o.id = v.value
         WHERE a.state = 'STAGED' AND (o.value = ? OR o.parent_id IN (SELECT id FROM field_options WHERE value = ?)) ORDER BY f.filename`,
      )
      .all(topFolder, topFolder)
      .map((row) => row.filename);

  beforeAll(async () => {
    service = await startTestService();
    env = { ASSET_SYNC_TOKEN: await service.token() };
  });
  afterAll(async () => {
    await service.dispose();
  });

  // Root reads mode-000 files, so this runs the CLI as an unprivileged user (nobody) when the test may
  // switch to one; where it cannot, the in-memory file system covers the case (local-scanner-memory.test.ts).
  const user = unprivilegedUser();
  it.skipIf(user === undefined)('reports a file it may not read as UNREADABLE and syncs the rest', { timeout: 60_000 }, async () => {
    const runAs = user ?? { uid: 0, gid: 0 };
    const folder = tempDir('asset-sync-unreadable-');
    const stateDir = tempDir('asset-sync-unreadable-state-');
    put(folder, 'open.txt', 'anyone may read this');
    put(folder, 'Sub/also-open.txt', 'and this');
    put(folder, 'secret.txt', 'nobody may read this');
    for (const path of [folder, join(folder, 'Sub'), join(folder, 'Sub/also-open.txt'), join(folder, 'open.txt'), join(folder, 'secret.txt'), stateDir]) {
      chownSync(path, runAs.uid, runAs.gid);
    }
    chmodSync(join(folder, 'secret.txt'), 0o000);
    const args = ['sync', '--server', service.url, '--folder', folder, '--remote', '/Unreadable', '--state', stateDir, '--once', '--stable-ms', '50'];

    const first = await runCliChild(args, { env, user: runAs });
    expect(first.code, first.err).toBe(1);
    expect(first.err).toMatch(/not synced: secret\.txt: UNREADABLE: /);
    expect(remoteNames('Unreadable')).toEqual(['also-open.txt', 'open.txt']);
    const status = await runCliChild(['status', '--state', stateDir, '--json'], { env, user: runAs });
    const root = JSON.parse(status.out).roots[0];
    expect(root).toMatchObject({ state: 'NEEDS_ATTENTION', syncedFiles: 2 });
    expect(root.notSynced).toEqual([expect.objectContaining({ relPath: 'secret.txt', reason: 'UNREADABLE' })]);

    // Readable again: it uploads and the report clears.
    chmodSync(join(folder, 'secret.txt'), 0o644);
    const second = await runCliChild(args, { env, user: runAs });
    expect(second.code, second.err).toBe(0);
    expect(remoteNames('Unreadable')).toEqual(['also-open.txt', 'open.txt', 'secret.txt']);
  });

  it('reports symlinks as SYMLINK, never uploads ignored files, and converges once the links are gone', async () => {
    const folder = tempDir('asset-sync-links-');
    const stateDir = tempDir('asset-sync-links-state-');
    put(folder, 'real.txt', 'real');
    put(folder, 'Sub/inner.txt', 'inner');
    symlinkSync('real.txt', join(folder, 'link.txt'));
    symlinkSync('Sub', join(folder, 'dir-link'));
    symlinkSync('/etc/hostname', join(folder, 'outside-link'));
    // Ignored: built-in patterns, and the root's own rules (which are not uploaded either).
    put(folder, '.DS_Store', 'mac');
    put(folder, 'Sub/scratch.tmp', 'temp');
    put(folder, '.assetsyncignore', '*.bak\nDrafts/\n');
    put(folder, 'old.bak', 'backup');
    put(folder, 'Drafts/idea.txt', 'draft');
    const sync = (): ReturnType<typeof cli> => cli(['sync', '--server', service.url, '--folder', folder, '--remote', '/Links', '--state', stateDir, '--once', '--stable-ms', '50'], env);

    const first = await sync();
    expect(first.code).toBe(1);
    for (const link of ['dir-link', 'link.txt', 'outside-link']) expect(first.err).toContain(`not synced: ${link}: SYMLINK: `);
    expect(first.err).not.toMatch(/DS_Store|scratch|old\.bak|Drafts|assetsyncignore/);
    expect(remoteNames('Links')).toEqual(['inner.txt', 'real.txt']);
    const status = JSON.parse((await cli(['status', '--state', stateDir, '--json'])).out).roots[0];
    expect(status.notSynced.map((issue: { relPath: string; reason: string }) => [issue.relPath, issue.reason])).toEqual([
      ['dir-link', 'SYMLINK'],
      ['link.txt', 'SYMLINK'],
      ['outside-link', 'SYMLINK'],
    ]);
    expect(status.localFiles).toBe(2);

    // An ignored file that changes still never goes; the links removed, nothing is left to report.
    put(folder, 'old.bak', 'backup, edited');
    for (const link of ['dir-link', 'link.txt', 'outside-link']) rmSync(join(folder, link));
    const second = await sync();
    expect(second.code, second.err).toBe(0);
    expect(remoteNames('Links')).toEqual(['inner.txt', 'real.txt']);
    expect(JSON.parse((await cli(['status', '--state', stateDir, '--json'])).out).roots[0].notSynced).toEqual([]);
  });
});

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { NodeFileSystem } from './node-file-system.js';
import { checkRoot, markerPath, readRootMarker, writeRootMarker } from './root-marker.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const fields = { rootId: 'root-1', server: 'http://127.0.0.1:8080', remotePath: '/Brand' };

describe('root marker', () => {
  it('is written once per root and read back; the same root again is a no-op, another root is refused', async () => {
    const clock = new ManualClock(Date.UTC(2026, 4, 1, 12));
    const fs = new MemoryFileSystem({ clock });
    fs.mkdirpSync('/designs');
    const marker = await writeRootMarker(fs, '/designs', fields, clock);
    expect(marker).toEqual({ version: 1, ...fields, createdAt: '2026-05-01T12:00:00.000Z' });
    expect(await readRootMarker(fs, '/designs')).toEqual(marker);
    clock.advance(60_000);
    expect(await writeRootMarker(fs, '/designs', fields, clock)).toEqual(marker);
    await expect(writeRootMarker(fs, '/designs', { ...fields, rootId: 'root-2' }, clock)).rejects.toMatchObject({ code: 'MARKER_EXISTS' });
    await expect(writeRootMarker(fs, '/nowhere', fields, clock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('checkRoot tells OK from a missing root, a missing marker and a marker of another root', async () => {
    const clock = new ManualClock();
    const fs = new MemoryFileSystem({ clock });
    fs.mkdirpSync('/designs');
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MISSING_MARKER' });
    await writeRootMarker(fs, '/designs', fields, clock);
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'OK', marker: { rootId: 'root-1' } });
    expect(await checkRoot(fs, '/designs', 'root-9')).toMatchObject({ status: 'MARKER_MISMATCH', marker: { rootId: 'root-1' } });

    fs.writeFile(markerPath('/designs'), '{ not json');
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MARKER_MISMATCH', detail: 'the root marker is not JSON' });
    fs.writeFile(markerPath('/designs'), '{"version": 2}');
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MARKER_MISMATCH' });

    fs.chmod('/designs/.asset-sync', 0o000);
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MISSING_MARKER', detail: 'cannot read the root marker: EACCES' });

    // An unmounted drive: the mount point is there, empty.
    fs.remove('/designs/.asset-sync');
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MISSING_MARKER' });
    fs.remove('/designs');
    expect(await checkRoot(fs, '/designs', 'root-1')).toEqual({ status: 'MISSING_ROOT', detail: '/designs does not exist' });
    fs.writeFile('/designs', 'a file now');
    expect(await checkRoot(fs, '/designs', 'root-1')).toMatchObject({ status: 'MISSING_ROOT', detail: '/designs is not a folder' });
  });

  it('works on a real directory, leaving no temp file behind', async () => {
    const root = tempDir('asset-sync-marker-');
    const fs = new NodeFileSystem();
    await writeRootMarker(fs, root, fields, new ManualClock());
    expect(JSON.parse(readFileSync(markerPath(root), 'utf8'))).toMatchObject(fields);
    expect((await fs.readdir(join(root, '.asset-sync'))).map((entry) => entry.name)).toEqual(['root.json']);
    expect(await checkRoot(fs, root, 'root-1')).toMatchObject({ status: 'OK' });
    rmSync(join(root, '.asset-sync'), { recursive: true });
    expect(await checkRoot(fs, root, 'root-1')).toMatchObject({ status: 'MISSING_MARKER' });
  });
});

/**
 * The data directory at rest: what other local users can and cannot get from it.
 * - The directory is 0700 and every file the service makes in it 0600, whatever the umask.
 * - A data directory other users can read is refused with DATA_DIR_EXPOSED, naming `chmod 700 DIR`
 *   and the key rotation; an empty one (nothing to have leaked yet) is made private and used.
 * - The signing keys live in signing-keys.json beside service.db, not in it: a copy of service.db
 *   alone mints no token the service accepts. `asset-sync keys rotate` replaces them; tokens signed
 *   before are refused with TOKEN_KEY_RETIRED.
 * - A directory an older version wrote (keys in service.db, files 0644) has its keys moved to the key
 *   file and its files made private on start, and tokens issued before keep working.
 * The umask is set to 022 (a common default) for the whole file and restored after it.
 */
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../../support/test-service.js';
import { tempDir } from '../../support/temp-dir.js';
import { cli } from '../../support/cli-runner.js';
import { currentUser } from '../../support/oauth-client.js';
import { putPart, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { makeImage, runDownloadJob } from '../../support/media-fixtures.js';
import { mintToken } from '../../../src/service/auth/mint-token.js';

const KEY_FILE = 'signing-keys.json';
const modeOf = (path: string): number => statSync(path).mode & 0o777;
const octal = (mode: number): string => mode.toString(8).padStart(3, '0');

/** A PNG of random pixels: too large to be kept inline in service.db, so it becomes a blob file. */
const noisyPng = (): Promise<Buffer> => sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } }).png().toBuffer();

/** Every entry under `root` with its mode in octal, directories marked with a trailing slash. */
function modesUnder(root: string): Record<string, string> {
  const modes: Record<string, string> = {};
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      const key = `${prefix}${name}${stat.isDirectory() ? '/' : ''}`;
      modes[key] = octal(stat.mode & 0o777);
      if (stat.isDirectory()) walk(path, key);
    }
  };
  walk(root, '');
  return modes;
}

/** The modes every entry must have: directories 0700, files 0600. */
function privateModes(modes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(modes).map((key) => [key, key.endsWith('/') ? '700' : '600']));
}

let previousUmask: number;
beforeAll(() => {
  previousUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(previousUmask);
});

describe('the data directory at rest', () => {
  it('makes the data directory 0700 and every file the service writes in it 0600 under umask 022', async () => {
    const dataDir = join(tempDir('asset-sync-perms-'), 'srv', 'data');
    const service = await startTestService({}, {}, dataDir);
    try {
      // A blob (too large to keep inline), its preview, a rendition, an upload left half-sent and a reference image.
      const image = await noisyPng();
      const { assetId, asset } = await uploadNewAsset(service, '/Shots/photo.png', image);
      // A PNG's preview is its own bytes: its thumbnail is the preview file kept.
      expect((await fetch(`${asset.currentAssetFile.previewUrl}&size=64`)).status).toBe(200);
      await runDownloadJob(service, {
        items: [{ batchItemId: 'i0', assetId, assetFileId: null }],
        transformationDescription: { type: 'CUSTOM', candidateTransformations: [{ criteria: { type: 'MATCH_ALL' }, transformation: { operations: [{ type: 'RESIZE', width: 50 }] } }] },
      });
      const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'half', path: '/Shots/half.bin', size: 10 * 1024 * 1024, partSize: 5 * 1024 * 1024, partUrlsRequest: { urlRequests: [] } }] });
      const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
      expect(job.failures ?? {}).toEqual({});
      const firstPart = job.successes.half.upload.parts[0];
      expect((await putPart(firstPart.url, Buffer.alloc(5 * 1024 * 1024, 7))).status).toBe(200);
      const reference = (await service.api('POST', '/reference-image-uploads')).body.result;
      expect((await fetch(reference.url, { method: 'PUT', body: await makeImage(8, 8, { format: 'png' }) })).status).toBe(200);
      await service.running.previewsIdle();

      const modes = modesUnder(dataDir);
      // Each kind of file the service keeps is there, so the walk below covers it.
      expect(Object.keys(modes)).toEqual(
        expect.arrayContaining(['service.db', 'service.db-wal', 'service.db-shm', 'service.lock', KEY_FILE, 'blobs/', 'previews/', 'transforms/', 'uploads/', 'reference-images/']),
      );
      for (const dir of ['blobs/', 'previews/', 'transforms/', 'uploads/', 'reference-images/']) {
        expect(Object.keys(modes).some((key) => key.startsWith(dir) && !key.endsWith('/') && key !== 'blobs/layout'), `a file in ${dir}`).toBe(true);
      }
      expect({ dataDir: octal(modeOf(dataDir)), ...modes }).toEqual({ dataDir: '700', ...privateModes(modes) });
    } finally {
      await service.stop();
    }
  });

  it('refuses a data directory other users can read with DATA_DIR_EXPOSED, naming chmod 700 and the key rotation', async () => {
    const service = await startTestService();
    await service.stop();
    for (const mode of [0o755, 0o750, 0o705]) {
      chmodSync(service.dataDir, mode);
      rmSync(join(service.dataDir, 'service.lock'), { force: true });
      const refused = service.restart();
      await expect(refused).rejects.toMatchObject({ code: 'DATA_DIR_EXPOSED' });
      const message = await refused.then(
        () => '',
        (error: unknown) => (error instanceof Error ? error.message : ''),
      );
      expect(message).toContain(`chmod 700 ${service.dataDir}`);
      expect(message).toContain(`asset-sync keys rotate --data ${service.dataDir}`);
      // Refused before it wrote anything: no lock, and the directory's mode is the owner's to change.
      expect(existsSync(join(service.dataDir, 'service.lock'))).toBe(false);
      expect(modeOf(service.dataDir)).toBe(mode);
    }
    chmodSync(service.dataDir, 0o700);
    const again = await service.restart();
    expect((await again.api('GET', '/current-user')).status).toBe(200);
    await again.stop();
  });

  it('makes an empty directory made under the umask private and serves it (nothing in it can have leaked)', async () => {
    const dataDir = join(tempDir('asset-sync-perms-'), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    expect(modeOf(dataDir)).toBe(0o755);
    const service = await startTestService({}, {}, dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect((await service.api('GET', '/current-user')).status).toBe(200);
    await service.stop();
  });

  it('keeps the signing keys in a 0600 key file beside service.db: a copy of service.db alone mints no token it accepts', async () => {
    const service = await startTestService();
    const keyFile = join(service.dataDir, KEY_FILE);
    expect(modeOf(keyFile)).toBe(0o600);
    const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as { accessToken: { d: string }; urlSigning: string; signIn: string; scroll: string };
    expect(keys.accessToken.d).toMatch(/^[\w-]{40,}$/);
    await service.stop();
    // Closed: the log is folded into service.db, so the file is all a backup would copy.
    const database = readFileSync(join(service.dataDir, 'service.db')).toString('latin1');
    for (const secret of [keys.accessToken.d, keys.urlSigning, keys.signIn, keys.scroll]) expect(database.includes(secret)).toBe(false);

    const copy = tempDir('asset-sync-perms-copy-');
    copyFileSync(join(service.dataDir, 'service.db'), join(copy, 'service.db'));
    await expect(mintToken({ dataDir: copy, ttlSeconds: 600 })).rejects.toMatchObject({ code: 'NO_KEYS' });
    // A service started on the copy makes keys of its own; the original refuses what they sign.
    const impostor = await startTestService({}, {}, copy);
    const forged = await impostor.token();
    await impostor.stop();
    const original = await service.restart();
    const refused = await currentUser(original, forged);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('TOKEN_INVALID');
    expect((await currentUser(original, await mintToken({ dataDir: service.dataDir, ttlSeconds: 600 }))).status).toBe(200);
    await original.stop();
  });

  it('rotates the keys with `asset-sync keys rotate`: tokens and URLs signed before are refused, new ones work', async () => {
    const service = await startTestService();
    const before = await service.token();
    expect((await currentUser(service, before)).status).toBe(200);
    const signedBefore = (await service.api('POST', '/reference-image-uploads')).body.result.url as string;
    // The running service holds the keys: rotating under it is refused.
    const whileRunning = await cli(['keys', 'rotate', '--data', service.dataDir]);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.err).toContain('[DATA_DIR_IN_USE]');
    await service.stop();

    const rotated = await cli(['keys', 'rotate', '--data', service.dataDir]);
    expect(rotated.err).toBe('');
    expect(rotated.code).toBe(0);
    expect(rotated.out).toMatch(/new signing keys/);
    expect(modeOf(join(service.dataDir, KEY_FILE))).toBe(0o600);

    const after = await service.restart();
    const refused = await currentUser(after, before);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'TOKEN_KEY_RETIRED' });
    expect(refused.body.message).toMatch(/rotated/);
    expect((await currentUser(after, await after.token())).status).toBe(200);
    const stale = await fetch(signedBefore.replace(service.url, after.url), { method: 'PUT', body: await makeImage(8, 8, { format: 'png' }) });
    expect(stale.status).toBe(403);
    expect(((await stale.json()) as { code: string }).code).toBe('INVALID_SIGNATURE');
    await after.stop();
  });

  it("moves an older version's keys out of service.db into the key file and makes its files private, keeping issued tokens valid", async () => {
    const service = await startTestService();
    const image = await noisyPng();
    await uploadNewAsset(service, '/Shots/photo.png', image);
    await service.running.previewsIdle();
    const issued = await service.token();
    await service.stop();

    // What an older version left: the keys in the settings table, no key file, files and folders under umask 022.
    const keyFile = join(service.dataDir, KEY_FILE);
    const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as { accessToken: { d: string; kid: string }; urlSigning: string; signIn: string; scroll: string };
    const db = new Database(join(service.dataDir, 'service.db'));
    const insert = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    insert.run('jwt_private_jwk', JSON.stringify(keys.accessToken));
    insert.run('url_signing_secret', keys.urlSigning);
    insert.run('oauth_sign_in_secret', keys.signIn);
    insert.run('scroll_signing_secret', keys.scroll);
    db.close();
    rmSync(keyFile);
    const loosen = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) loosen(path);
        chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
      }
    };
    loosen(service.dataDir);
    // The owner has made the directory itself private, as the refusal asks.
    chmodSync(service.dataDir, 0o700);

    const upgraded = await service.restart();
    expect((await currentUser(upgraded, issued)).status).toBe(200);
    expect(JSON.parse(readFileSync(keyFile, 'utf8'))).toMatchObject({ accessToken: { kid: keys.accessToken.kid, d: keys.accessToken.d }, urlSigning: keys.urlSigning });
    const left = upgraded.running.ctx.db.prepare("SELECT key FROM settings WHERE key IN ('jwt_private_jwk', 'url_signing_secret', 'oauth_sign_in_secret', 'scroll_signing_secret')").all();
    expect(left).toEqual([]);
    const modes = modesUnder(service.dataDir);
    expect(modes).toEqual(privateModes(modes));
    await upgraded.stop();
    const database = readFileSync(join(service.dataDir, 'service.db')).toString('latin1');
    for (const secret of [keys.accessToken.d, keys.urlSigning, keys.signIn, keys.scroll]) expect(database.includes(secret)).toBe(false);
  });

});

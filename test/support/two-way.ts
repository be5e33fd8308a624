/**
 * Two-way sync tests: two clients (two folders, two state dirs) on one real service, a "colleague"
 * who changes things straight through the API the way the web app would, and small disk helpers.
 * Each test gets its own remote folder (`/T1`, …) so tests on one service stay apart.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../src/main/api/index.js';
import type { OnceResult } from '../../src/main/engine/index.js';
import type { PassReport } from '../../src/main/sync/root-sync.js';
import { startSyncHarness, type SyncHarness, type SyncHarnessOptions } from './sync-harness.js';
import type { TestService } from './test-service.js';
import { sendParts, uploadNewAsset } from './upload-helpers.js';

export interface Client {
  h: SyncHarness;
  write(relPath: string, content: string | Buffer): void;
  read(relPath: string): string;
  exists(relPath: string): boolean;
  remove(relPath: string): void;
  /** Every file under the root (not `.asset-sync/`): relPath → content, bytes as latin1. */
  tree(): Record<string, string>;
  once(): Promise<OnceResult>;
}

export function client(h: SyncHarness): Client {
  const abs = (relPath: string): string => join(h.folder, relPath);
  return {
    h,
    write(relPath, content) {
      mkdirSync(join(abs(relPath), '..'), { recursive: true });
      writeFileSync(abs(relPath), content);
    },
    read: (relPath) => readFileSync(abs(relPath), 'utf8'),
    exists: (relPath) => existsSync(abs(relPath)),
    remove: (relPath) => rmSync(abs(relPath), { recursive: true }),
    tree: () => treeOf(h.folder),
    once: () => h.once(),
  };
}

export function treeOf(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (rel === '.asset-sync') continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), rel);
      else files[rel.normalize('NFC')] = readFileSync(join(dir, entry.name)).toString('latin1');
    }
  };
  walk(folder, '');
  return files;
}

/** Directories under the root (not `.asset-sync`), sorted. */
export function dirsOf(folder: string): string[] {
  const dirs: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (!entry.isDirectory() || rel === '.asset-sync') continue;
      dirs.push(rel);
      walk(join(dir, entry.name), rel);
    }
  };
  walk(folder, '');
  return dirs.sort();
}

export const total = (result: OnceResult, key: keyof Omit<PassReport, 'rootId' | 'stopped' | 'scanned' | 'remoteError' | 'rested'>): number =>
  result.reports.reduce((sum, report) => sum + report[key], 0);

export async function startTwoClients(service: TestService, remotePath: string, options: SyncHarnessOptions = {}): Promise<{ a: Client; b: Client; settle: () => Promise<void>; dispose: () => Promise<void> }> {
  const a = client(await startSyncHarness(service, { remotePath, ...options }));
  const b = client(await startSyncHarness(service, { remotePath, ...options }));
  return {
    a,
    b,
    /** Syncs A then B, round after round, until a round does nothing on either side and both converged. */
    async settle() {
      for (let round = 0; round < 6; round++) {
        const results = [await a.once(), await b.once()];
        if (results.every((result) => result.converged && result.reports.every((report) => report.operations === 0))) return;
      }
      throw new Error('the two clients did not settle in 6 rounds');
    },
    async dispose() {
      await a.h.dispose();
      await b.h.dispose();
    },
  };
}

/** A colleague working in the web app: changes made straight through the API. */
export function colleague(service: TestService, api: ApiClient) {
  const fieldId = (): Promise<string> => api.foldersFieldId();
  /** The option of a folder path (`/T1/Brand`), created when missing. */
  const folder = async (path: string): Promise<string> => {
    const field = await fieldId();
    let parent: string | null = null;
    for (const value of path.split('/').filter((segment) => segment !== '')) {
      const children = await api.listFieldOptionChildren(field, parent);
      const found = children.find((option) => option.value === value);
      if (found !== undefined) {
        parent = found.id;
        continue;
      }
      const created = await api.createFieldOptions([{ batchItemId: 'f', fieldId: field, value, parentId: parent }]);
      const option = created.successes.f;
      if (option === undefined) throw new Error(`cannot create ${value}`);
      parent = option.id;
    }
    if (parent === null) throw new Error('no folder');
    return parent;
  };
  return {
    folder,
    async upload(path: string, content: string | Buffer): Promise<string> {
      return (await uploadNewAsset(service, path, Buffer.from(content))).assetId;
    },
    async newVersion(assetId: string, content: string | Buffer): Promise<void> {
      const bytes = Buffer.from(content);
      const created = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, size: bytes.length, partUrlsRequest: { urlRequests: [] } });
      if (created.status !== 200) throw new Error(created.text);
      const parts = await sendParts(created.body.result, bytes);
      const done = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: created.body.result.uploadId, parts });
      if (done.status !== 200) throw new Error(done.text);
    },
    rename: (assetId: string, filename: string) => api.changeAsset(assetId, { filename }),
    async move(assetId: string, toFolder: string): Promise<void> {
      await api.editMetadata({ type: 'BY_IDS', assetIds: [assetId] }, [{ fieldId: await fieldId(), type: 'BY_IDS', values: [await folder(toFolder)], operation: 'REPLACE' }]);
    },
    async addFolder(assetId: string, toFolder: string): Promise<void> {
      await api.editMetadata({ type: 'BY_IDS', assetIds: [assetId] }, [{ fieldId: await fieldId(), type: 'BY_IDS', values: [await folder(toFolder)], operation: 'ADD' }]);
    },
    bin: (assetIds: string[]) => api.transitionLifecycle({ type: 'BY_IDS', assetIds }, 'BINNED'),
    async renameFolder(path: string, value: string): Promise<void> {
      await api.changeFieldOption(await folder(path), { value });
    },
    async moveFolder(path: string, toParent: string): Promise<void> {
      await api.changeFieldOption(await folder(path), { parentId: await folder(toParent) });
    },
    async deleteFolder(path: string): Promise<void> {
      await api.deleteFieldOption(await folder(path));
    },
  };
}

/** The asset id at a remote path (`/T1/a.txt`). */
export async function assetAt(h: SyncHarness, path: string): Promise<string> {
  const found = (await h.assets()).find((asset) => asset.path === path);
  if (found === undefined) throw new Error(`no asset at ${path}: ${(await h.assets()).map((asset) => asset.path).join(', ')}`);
  return found.id;
}

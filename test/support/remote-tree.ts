/**
 * The service seen from outside, over plain HTTP with a bearer token (the service may be a child
 * process, so nothing here reaches into its database): a colleague who adds assets and versions the
 * way the web app does, and the remote tree — every asset not in the bin, by folder path and file
 * name, with size and SHA-256 — plus every version any asset ever had, for "nothing lost" checks.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RemoteFile {
  assetId: string;
  size: number;
  sha256: string;
}

export interface RemoteApi {
  /** Base URL and token; the URL may change when the service restarts. */
  target: { url: string; token: string };
  /** A new asset at `/Folder/name` holding `bytes`. */
  upload(path: string, bytes: Buffer): Promise<string>;
  /** A new current version of an asset. */
  newVersion(assetId: string, bytes: Buffer): Promise<void>;
  /** Path → file of every asset not in the bin; assets without a file under `(empty) <id>`. */
  tree(): Promise<Map<string, RemoteFile>>;
  /** Every version the given assets ever had (current ones included). */
  versions(assetIds: Iterable<string>): Promise<{ assetId: string; size: number; sha256: string }[]>;
}

interface Answer {
  status: number;
  body: any;
}

export function remoteApi(target: { url: string; token: string }): RemoteApi {
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${target.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : JSON.parse(text) };
  };
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await call(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    // Some answers are bare (GET /fields), most come in a `{result}` envelope.
    return answer.body.result ?? answer.body;
  };
  const job = async (path: string, id: string): Promise<any> => {
    for (;;) {
      const state = await ok('GET', `${path}/${id}`);
      if (state.state !== 'QUEUED' && state.state !== 'RUNNING') return state;
      await sleep(10);
    }
  };
  /** Part URLs are signed with the public URL; they are sent to where the service listens now. */
  const sendParts = async (upload: any, bytes: Buffer): Promise<{ partNumber: number; eTag: string }[]> => {
    const parts: { partNumber: number; eTag: string }[] = [];
    for (const part of upload.parts) {
      const signed = new URL(part.url);
      const response = await fetch(`${target.url}${signed.pathname}${signed.search}`, { method: 'PUT', body: bytes.subarray(part.byteRange.start, part.byteRange.end), headers: { 'content-type': 'application/octet-stream' } });
      if (response.status !== 200) throw new Error(`part ${part.partNumber}: ${await response.text()}`);
      parts.push({ partNumber: part.partNumber, eTag: response.headers.get('etag') ?? '' });
    }
    return parts;
  };
  const folderPaths = new Map<string, string>();
  const folderPath = async (optionId: string): Promise<string> => {
    const known = folderPaths.get(optionId);
    if (known !== undefined) return known;
    const option = await ok('GET', `/field-options/${optionId}`);
    const path = `${option.parent == null ? '' : await folderPath(option.parent.id)}/${option.value}`;
    folderPaths.set(optionId, path);
    return path;
  };
  return {
    target,
    async upload(path, bytes) {
      const created = await ok('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'one', path, size: bytes.length, partUrlsRequest: { urlRequests: [] } }] });
      const done = await job('/asset-and-upload-batch-jobs', created.id);
      const success = done.successes?.one;
      if (success === undefined) throw new Error(`upload of ${path} failed: ${JSON.stringify(done)}`);
      await ok('POST', '/asset-upload-completions', { assetId: success.assetId, uploadId: success.upload.uploadId, parts: await sendParts(success.upload, bytes) });
      return success.assetId;
    },
    async newVersion(assetId, bytes) {
      const upload = await ok('POST', '/asset-uploads', { assetId, assetFileId: null, size: bytes.length, partUrlsRequest: { urlRequests: [] } });
      await ok('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: await sendParts(upload, bytes) });
    },
    async tree() {
      const fields: any[] = await ok('GET', '/fields');
      const foldersField = fields.find((field) => field.name === 'Folders')?.id;
      const tree = new Map<string, RemoteFile>();
      const criterion = { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE'] };
      for (let from = 0; ; from += 500) {
        const page = await ok('POST', '/asset-searches', { criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], from, pageSize: 500 });
        for (const { result: asset } of page.results) {
          const file = asset.currentAssetFile;
          if (file == null) {
            tree.set(`(empty) ${asset.id}`, { assetId: asset.id, size: 0, sha256: '' });
            continue;
          }
          const options: string[] = asset.metadata.values[foldersField] ?? [];
          for (const dir of options.length === 0 ? [''] : await Promise.all(options.map(folderPath))) {
            const path = `${dir.slice(1)}${dir === '' ? '' : '/'}${file.filename}`;
            if (tree.has(path)) throw new Error(`two assets at ${path}: ${tree.get(path)?.assetId} and ${asset.id}`);
            tree.set(path, { assetId: asset.id, size: file.size, sha256: file.sha256 });
          }
        }
        if (page.results.length < 500) return tree;
      }
    },
    async versions(assetIds) {
      const found: { assetId: string; size: number; sha256: string }[] = [];
      for (const assetId of assetIds) {
        const page = await ok('GET', `/assets/${assetId}/files`);
        for (const { result: file } of page.results as any[]) found.push({ assetId, size: file.size, sha256: file.sha256 });
      }
      return found;
    },
  };
}

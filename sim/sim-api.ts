/**
 * The engine's AssetApi in the simulation: the real API client (its retries, token refresh, Retry-After
 * and connectivity handling) over a transport that calls the real service in-process with
 * fastify's routing entry (direct-request.ts: no socket carries a request), behind the fault layer. Part uploads and downloads,
 * which the real client streams from and to real files, read and write the MemoryFileSystem instead.
 */
import type { FastifyInstance } from 'fastify';
import { createApiClient } from '../src/main/api/create-api-client.js';
import { staticTokenProvider, type JsonAnswer, type JsonTransport } from '../src/main/api/api-client.js';
import { ApiError, apiErrorFromResponse } from '../src/main/api/api-error.js';
import type { AssetApi, DownloadResult, DownloadToFileOptions, PartAnswer, PutPartRequest } from '../src/main/api/asset-api.js';
import { fileChangedError } from '../src/main/api/part-source.js';
import { DEFAULT_RETRY, withRetries } from '../src/main/api/with-retries.js';
import { sameSignature, type FileSystem, type MemoryFileSystem } from '../src/main/local/index.js';
import { envelopeSchema, assetSchema, parseAnswer } from '../src/main/api/wire-shapes.js';
import { directRequest, type DirectAnswer } from './direct-request.js';
import { transportFailure, type Faults, type NetworkFault } from './faults.js';
import type { Prng } from './prng.js';
import type { SimClock } from './sim-clock.js';
import { md5Hex } from '../test/support/checksums.js';

export const SIM_SERVER = 'http://sim.invalid';
const COMPLETE_HEADER = 'asset-sync-complete';

export interface SimApiDeps {
  app: FastifyInstance;
  token: string;
  clock: SimClock;
  random: Prng;
  faults: Faults;
  /** The engine's view of the disk (crash and disk faults apply). */
  fs: FileSystem;
  /** The disk itself, where a user changes a file while it is uploaded. */
  disk: MemoryFileSystem;
  /** Hears a user's append to a file while it uploads (the content before, the mark) and returns what to append (`UserWrites.appended`). */
  edited?: (before: string, mark: string) => string;
  /** A planted bug for the harness's own test: report a lost answer as a request never sent. */
  plantBlindRetry?: boolean;
}

/** A request path with ids blanked, so the trace does not depend on the ids the service drew. */
export function traceLabel(method: string, path: string): string {
  return `${method} ${(path.split('?')[0] ?? '').replace(/[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*/g, (segment) => (segment.length >= 12 ? ':id' : segment))}`;
}

type Injected = DirectAnswer;

async function inject(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, payload?: string | Buffer): Promise<Injected> {
  const target = new URL(url, SIM_SERVER);
  return directRequest(app, method, `${target.pathname}${target.search}`, headers, payload);
}

/** What a fault turns an exchange into: a thrown transport failure or a synthetic answer; undefined = send as is. */
async function faulted(fault: NetworkFault | undefined, send: () => Promise<Injected>, plantBlindRetry: boolean): Promise<Injected> {
  switch (fault) {
    case undefined:
      return send();
    case 'reset-before':
      throw transportFailure('ECONNRESET', 'socket hang up (simulated, before the request arrived)');
    case 'lost-after-commit':
      await send();
      // The planted bug: a lost answer reported as a connection never made, so a POST is repeated.
      if (plantBlindRetry) throw transportFailure('ECONNREFUSED', 'connect ECONNREFUSED (planted bug)');
      throw transportFailure('ECONNRESET', 'socket hang up (simulated, after the service committed)');
    case 'timeout':
      await send();
      throw transportFailure('ETIMEDOUT', 'Timeout awaiting response (simulated)', 'TimeoutError', 'response');
    case 'http-500':
      return synthetic(500, 'INTERNAL_ERROR');
    case 'http-502-after':
      await send();
      return synthetic(502, 'BAD_GATEWAY');
    case 'http-429':
      return synthetic(429, 'TOO_MANY_REQUESTS', '1');
    case 'http-503':
      return synthetic(503, 'SERVICE_UNAVAILABLE', '3');
    case 'http-401':
      return synthetic(401, 'UNAUTHORIZED');
    case 'outage':
      throw transportFailure('ECONNREFUSED', 'connect ECONNREFUSED (simulated outage)');
  }
}

function synthetic(status: number, code: string, retryAfter?: string): Injected {
  return {
    status,
    headers: { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) },
    body: Buffer.from(JSON.stringify({ code, message: `simulated ${status}` })),
  };
}

export function injectTransport(deps: Pick<SimApiDeps, 'app' | 'faults' | 'plantBlindRetry'>): JsonTransport {
  return async ({ method, url, headers, body }): Promise<JsonAnswer> => {
    const label = traceLabel(method, url.pathname);
    deps.faults.crashPoint(`${label} (before)`);
    const fault = deps.faults.network(label);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const answer = await faulted(fault, () => inject(deps.app, method, url.toString(), payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload), deps.plantBlindRetry === true);
    deps.faults.crashPoint(`${label} (after)`);
    return { statusCode: answer.status, headers: answer.headers, body: answer.body.toString('utf8') };
  };
}

export function simApi(deps: SimApiDeps): AssetApi {
  const client = createApiClient({
    server: SIM_SERVER,
    tokens: staticTokenProvider(deps.token),
    env: {},
    clock: deps.clock,
    random: () => deps.random.next(),
    jobPoll: { initialMs: 5, maxMs: 50 },
    transport: injectTransport(deps),
  });
  const retryContext = { clock: deps.clock, random: () => deps.random.next(), policy: DEFAULT_RETRY };

  const putPart = (request: PutPartRequest): Promise<PartAnswer> =>
    withRetries(retryContext, async () => {
      const label = traceLabel('PUT', new URL(request.url).pathname);
      deps.faults.crashPoint(`${label} (before)`);
      if (deps.faults.disk(request.filePath, ['changed-while-uploaded']) !== undefined && deps.disk.kindOf(request.filePath) === 'file') {
        deps.disk.appendFile(request.filePath, deps.edited?.(deps.disk.readText(request.filePath), '+') ?? '+');
      }
      const stat = await deps.fs.lstat(request.filePath).catch(() => undefined);
      if (stat?.kind !== 'file') throw fileChangedError(request.filePath, 'is gone');
      if (request.expected !== undefined && !sameSignature(request.expected, stat)) throw fileChangedError(request.filePath, 'changed since it was recorded');
      const bytes = Buffer.from((await deps.fs.readFile(request.filePath)).subarray(request.start, request.end));
      if (bytes.length !== request.end - request.start) throw fileChangedError(request.filePath, 'is shorter than the part');
      const headers: Record<string, string> = {
        'content-type': 'application/octet-stream',
        ...(request.contentMd5 === undefined ? {} : { 'content-md5': request.contentMd5 }),
        ...(request.complete === true ? { [COMPLETE_HEADER]: '?1' } : {}),
      };
      const answer = await faulted(deps.faults.network(label), () => inject(deps.app, 'PUT', request.url, headers, bytes), false).catch((error: unknown) => {
        throw error instanceof ApiError ? error : new ApiError({ code: 'NETWORK', message: `PUT ${label}: ${String(error)}`, retryable: true, maybeApplied: true });
      });
      deps.faults.crashPoint(`${label} (after)`);
      const url = new URL(request.url);
      if (answer.status >= 300) throw apiErrorFromResponse({ method: 'PUT', url, status: answer.status, retryAfter: answer.headers['retry-after'], bodyText: answer.body.toString('utf8'), now: deps.clock.now() });
      const eTag = answer.headers.etag ?? '';
      request.onProgress?.(bytes.length);
      if (request.complete !== true || answer.headers[COMPLETE_HEADER] !== '?1') return { eTag };
      const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
      return { eTag, completed: parseAnswer(envelopeSchema(assetSchema), parsed, 'PUT', url.pathname).result };
    });

  const downloadToFile = async (url: string, tempPath: string, options: DownloadToFileOptions = {}): Promise<DownloadResult> => {
    const label = traceLabel('GET', new URL(url).pathname);
    deps.faults.crashPoint(`${label} (before)`);
    const fault = deps.faults.network(label);
    let answer = await faulted(fault === 'lost-after-commit' ? undefined : fault, () => inject(deps.app, 'GET', url, {}), false).catch((error: unknown) => {
      throw new ApiError({ code: 'NETWORK', message: `GET ${label}: ${String(error)}`, retryable: true });
    });
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location !== undefined) answer = await inject(deps.app, 'GET', new URL(location, url).toString(), {});
    if (answer.status >= 300) throw apiErrorFromResponse({ method: 'GET', url: new URL(url), status: answer.status, retryAfter: answer.headers['retry-after'], bodyText: answer.body.toString('utf8'), now: deps.clock.now() });
    const handle = await deps.fs.openWrite(tempPath, { exclusive: false });
    try {
      if (fault === 'lost-after-commit') {
        // The connection drops mid-body: half the bytes reach the temp file.
        await handle.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
        throw new ApiError({ code: 'NETWORK', message: `GET ${label}: the connection was reset mid-body (simulated)`, retryable: true });
      }
      await handle.write(answer.body);
      if (options.fsync === true) await handle.sync();
    } finally {
      await handle.close();
    }
    options.onProgress?.(answer.body.length);
    return { size: answer.body.length, resumed: false, etag: answer.headers.etag, ...(options.md5 === true ? { md5: md5Hex(answer.body) } : {}) };
  };

  return {
    ...client,
    putPart,
    downloadToFile,
    followChanges: async () => {
      throw new ApiError({ code: 'NETWORK', message: 'the simulation has no change stream', retryable: true });
    },
  };
}

/**
 * The one factory of the HTTP API client: builds the shared context (keep-alive agents with proxy
 * selection, clock, retry policy, bandwidth limiters) and the resource modules, and answers them as an
 * AssetApi plus the two controls only the real client has (bandwidth caps, close). This is the only
 * wiring file of src/main/api/.
 */
import { createRequester, DEFAULT_TIMEOUTS, type ClientContext, type JsonTransport, type Timeouts, type TokenProvider } from './api-client.js';
import type { AssetApi } from './asset-api.js';
import { accountResources } from './account-resources.js';
import { ApiError } from './api-error.js';
import { assetResources } from './asset-resources.js';
import { batchJobResources } from './batch-job-resources.js';
import { followChanges, serviceFeatures } from './change-events.js';
import { createBandwidthLimiter } from './bandwidth-limiter.js';
import { ChunkBuffers } from './chunk-buffers.js';
import { systemClock, type ClientClock } from './client-clock.js';
import { downloadToFile } from './download-file.js';
import { fieldOptionResources } from './field-option-resources.js';
import { DEFAULT_JOB_POLL, type JobPollPolicy } from './jobs.js';
import { putPart } from './part-upload.js';
import { createAgentPool, type ProxyEnv } from './proxy-agents.js';
import { searchResources } from './search-resources.js';
import { uploadResources } from './upload-resources.js';
import { DEFAULT_RETRY, type RetryPolicy } from './with-retries.js';
import { InlineCalls } from '../disk/inline-calls.js';
import { ConnectivityMonitor, type ConnectivityListener } from './connectivity-monitor.js';
import type { Connectivity } from '../../shared/sync/connectivity.js';

export interface BandwidthLimits {
  /** Bytes per second for all part uploads together; null = no cap. */
  uploadBytesPerSecond: number | null;
  /** Bytes per second for all downloads together; null = no cap. */
  downloadBytesPerSecond: number | null;
}

export interface ApiClientOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:7480` or `https://api-v2.dash.app`. */
  server: string;
  tokens: TokenProvider;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (default: process.env). */
  env?: ProxyEnv;
  clock?: ClientClock;
  /** [0, 1), for backoff jitter (default Math.random). */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  jobPoll?: Partial<JobPollPolicy>;
  /** Page size of searches that page to the end (default 100). */
  pageSize?: number;
  bandwidth?: Partial<BandwidthLimits>;
  userAgent?: string;
  /** When a part's small file calls may run on the event loop (default: on local disks, briefly). */
  inline?: InlineCalls;
  /** Hears each change of the service's reachability (reachable → unreachable → reachable), never each failure. */
  onConnectivity?: ConnectivityListener;
  /** Aborts every wait for an unreachable service (the CLI's Ctrl+C). */
  stop?: AbortSignal;
  /** While the service is unreachable, requests wait for its next try (default), or fail at once (one pass, `sync --once`). */
  whileUnreachable?: 'wait' | 'fail';
  /** How JSON requests travel (default: Node's own client, json-transport.ts); the simulation sends them in-process. */
  transport?: JsonTransport;
}

export interface ApiClient extends AssetApi {
  readonly server: string;
  setBandwidthLimits(limits: Partial<BandwidthLimits>): void;
  /** Whether the service is reachable now, and when requests next try when it is not. */
  connectivity(): Connectivity;
  /** Sends the next request now even while the service counts as unreachable (see ConnectivityMonitor.retryNow). */
  retryNow(): void;
  /** Closes pooled connections; the client must not be used afterwards. */
  close(): void;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const server = options.server.trim().replace(/\/+$/, '');
  if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
    throw new ApiError({ code: 'INVALID_SERVER', message: `The server address must be an http(s) URL, got "${options.server}".` });
  }
  const clock = options.clock ?? systemClock;
  const context: ClientContext = {
    server,
    agents: createAgentPool(options.env ?? process.env),
    clock,
    random: options.random ?? Math.random,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    userAgent: options.userAgent ?? 'asset-sync',
    uploadLimiter: createBandwidthLimiter(clock, options.bandwidth?.uploadBytesPerSecond ?? null),
    downloadLimiter: createBandwidthLimiter(clock, options.bandwidth?.downloadBytesPerSecond ?? null),
    chunkBuffers: new ChunkBuffers(),
    inline: options.inline ?? new InlineCalls(),
    connectivity: new ConnectivityMonitor(server, clock),
    stop: options.stop,
    whileUnreachable: options.whileUnreachable ?? 'wait',
    transport: options.transport,
  };
  if (options.onConnectivity !== undefined) context.connectivity.listen(options.onConnectivity);
  // Transfers go to signed URLs; those on the service's own origin tell about its reachability too.
  const observed = <T>(url: string, transfer: Promise<T>): Promise<T> => {
    if (!URL.canParse(url) || new URL(url).origin !== new URL(server).origin) return transfer;
    return transfer.then(
      (result) => {
        context.connectivity.reached();
        return result;
      },
      (error: unknown) => {
        if (error instanceof ApiError) {
          if (error.status === undefined) context.connectivity.failed(error);
          else context.connectivity.reached();
        }
        throw error;
      },
    );
  };
  const requester = createRequester(context, options.tokens);
  const jobPoll = { ...DEFAULT_JOB_POLL, ...options.jobPoll };
  const pageSize = options.pageSize ?? 100;

  return {
    server,
    ...accountResources(requester),
    ...fieldOptionResources(requester, pageSize),
    ...assetResources(requester),
    ...searchResources(requester, pageSize),
    ...uploadResources(requester, jobPoll),
    ...batchJobResources(requester, jobPoll),
    putPart: (request) => observed(request.url, putPart(context, request)),
    downloadToFile: (url, tempPath, downloadOptions) => observed(url, downloadToFile(context, url, tempPath, downloadOptions)),
    connectivity: () => context.connectivity.state,
    retryNow: () => context.connectivity.retryNow(),
    serviceFeatures: () => serviceFeatures(requester),
    followChanges: (request) => followChanges(context, options.tokens, request),
    setBandwidthLimits(limits) {
      if (limits.uploadBytesPerSecond !== undefined) context.uploadLimiter.setRate(limits.uploadBytesPerSecond);
      if (limits.downloadBytesPerSecond !== undefined) context.downloadLimiter.setRate(limits.downloadBytesPerSecond);
    },
    close() {
      context.agents.destroy();
    },
  };
}

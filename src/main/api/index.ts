/**
 * The public face of src/main/api/: the factory, the AssetApi contract, ApiError, the helpers the engine
 * uses and the HTTP plumbing the OAuth client (auth/) shares. Other folders import api/ only through here.
 */
export { createApiClient, type ApiClient, type ApiClientOptions, type BandwidthLimits } from './create-api-client.js';
export type * from './asset-api.js';
export { ApiError, apiErrorFromResponse, describeUrl, invalidResponse, isApiError, unlessNotFound, type ApiErrorInit } from './api-error.js';
export { currentMd5 } from './current-md5.js';
export { safeToRepeat, staticTokenProvider, type TokenProvider, type Timeouts } from './api-client.js';
export { systemClock, type ClientClock } from './client-clock.js';
export { DEFAULT_RETRY, withRetries, type RetryPolicy } from './with-retries.js';
export { createAgentPool, type ProxyEnv } from './proxy-agents.js';
export { transportError } from './transport-error.js';
export type { JobPollPolicy } from './jobs.js';
export { retryDelay, parseRetryAfter } from './retry-delay.js';
export { missingPartNumbers } from './upload-resources.js';
export { childrenCriterion } from './field-option-resources.js';
export { walkFieldOptions, type FolderNode } from './walk-field-options.js';
export type { FollowChangesRequest } from './change-events.js';

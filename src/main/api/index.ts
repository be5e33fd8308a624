/** The public face of src/main/api/: the factory, the AssetApi contract, ApiError and the helpers the engine uses. */
export { createApiClient, type ApiClient, type ApiClientOptions, type BandwidthLimits } from './create-api-client.js';
export type * from './asset-api.js';
export { ApiError, isApiError, unlessNotFound, type ApiErrorInit } from './api-error.js';
export { currentMd5 } from './current-md5.js';
export { staticTokenProvider, type TokenProvider, type Timeouts } from './api-client.js';
export type { ClientClock } from './client-clock.js';
export type { RetryPolicy } from './with-retries.js';
export type { JobPollPolicy } from './jobs.js';
export { retryDelay, parseRetryAfter } from './retry-delay.js';
export { missingPartNumbers } from './upload-resources.js';
export { childrenCriterion } from './field-option-resources.js';
export { walkFieldOptions, type FolderNode } from './walk-field-options.js';
export type { FollowChangesRequest } from './change-events.js';

/**
 * The API client wired to a real test service (test/support/test-service.ts), with fast job polling,
 * and temp files of random bytes for transfers. Tests close the client and dispose the service.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../src/main/api/create-api-client.js';
import { staticTokenProvider } from '../../src/main/api/api-client.js';
import type { TestService } from './test-service.js';

export async function clientFor(service: TestService, options: Partial<ApiClientOptions> = {}): Promise<ApiClient> {
  return createApiClient({
    server: service.url,
    tokens: staticTokenProvider(await service.token()),
    env: {},
    jobPoll: { initialMs: 5, maxMs: 50 },
    ...options,
  });
}

/** Writes `size` random bytes to `dir/name` and answers the path and the bytes. */
export function randomTempFile(dir: string, name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}


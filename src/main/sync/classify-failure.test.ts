import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { classifyFailure } from './classify-failure.js';

const HOUR = 60 * 60_000;

describe('classifyFailure', () => {
  it('waits an hour after a refusal retrying cannot fix, and a backoff after a 5xx', () => {
    expect(classifyFailure(new ApiError({ code: 'FORBIDDEN', message: 'no', status: 403 }), 0).retryInMs).toBe(HOUR);
    expect(classifyFailure(new ApiError({ code: 'SERVER_ERROR', message: 'oops', status: 500 }), 0).retryInMs).toBe(5_000);
  });

  it('takes a 401 (a part URL or a token the client already refreshed) as transient, not an hour-long verdict on the file (seed 1134)', () => {
    const verdict = classifyFailure(new ApiError({ code: 'UNAUTHORIZED', message: 'simulated 401', status: 401 }), 1);
    expect(verdict).toMatchObject({ reason: 'UNAUTHORIZED', retryInMs: 10_000 });
  });
});

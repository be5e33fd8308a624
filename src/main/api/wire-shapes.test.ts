import { describe, expect, it } from 'vitest';
import { assetSchema, assetUploadSchema, envelopeSchema, parseAnswer, searchPageSchema, userSchema } from './wire-shapes.js';
import { jobSchema } from './jobs.js';
import { apiErrorFromResponse, describeUrl } from './api-error.js';
import { MIB } from '../../shared/api/part-layout.js';

const minimalAsset = { id: 'a1', lifecycleStatus: { state: 'LIVE' }, dateLastModified: '2026-03-01T09:24:01.417Z' };

describe('tolerant answers', () => {
  it('fills documented defaults for an asset with only what the engine needs, and drops unknown properties', () => {
    const asset = parseAnswer(assetSchema, { ...minimalAsset, somethingNew: { nested: true } }, 'GET', '/assets/a1');
    expect(asset).toEqual({
      id: 'a1',
      accountId: '',
      metadata: { values: {} },
      currentAssetFile: null,
      lifecycleStatus: { state: 'LIVE', dateStaged: null, datePendingApproval: null, dateLive: null, stagedBy: null },
      dateLastModified: '2026-03-01T09:24:01.417Z',
    });
  });

  it('accepts a file without the optional details and gives it its asset id', () => {
    const asset = parseAnswer(assetSchema, { ...minimalAsset, currentAssetFile: { id: 'f1', filename: 'x.png', size: 3, checksum: 'abc', fileType: 'HOLOGRAM' } }, 'GET', '/assets/a1');
    expect(asset.currentAssetFile).toMatchObject({ id: 'f1', assetId: 'a1', fileType: 'OTHER', mediaType: { type: 'application', subType: 'octet-stream' }, dimensions: null, addedBy: null });
  });

  it('refuses an answer that lacks what the engine relies on', () => {
    expect(() => parseAnswer(assetSchema, { id: 'a1' }, 'GET', '/assets/a1')).toThrow(expect.objectContaining({ code: 'INVALID_RESPONSE' }));
    expect(() => parseAnswer(assetSchema, { ...minimalAsset, currentAssetFile: { id: 'f', filename: 'x', size: '3', checksum: 'c' } }, 'GET', '/assets/a1')).toThrow(/currentAssetFile.size/);
    expect(() => parseAnswer(assetSchema, { ...minimalAsset, metadata: { values: { f: 'not a list' } } }, 'GET', '/assets/a1')).toThrow(/metadata.values.f/);
  });

  it('accepts bare and enveloped search items, and a missing totalResults', () => {
    const page = parseAnswer(searchPageSchema(userSchema), { results: [{ id: 'u1', email: 'a@b' }, { result: { id: 'u2' }, permittedActions: [{ action: 'VIEW' }] }] }, 'POST', '/x');
    expect(page.totalResults).toBe(2);
    expect(page.results.map((item) => item.result.id)).toEqual(['u1', 'u2']);
    expect(page.results[1]?.permittedActions).toEqual([{ resourceType: '', resourceId: null, action: 'VIEW' }]);
    expect(page.scrollId).toBeUndefined();
    expect(parseAnswer(envelopeSchema(userSchema), { id: 'bare' }, 'GET', '/current-user').result.id).toBe('bare');
  });

  it('computes missing part ranges from the shared layout rules', () => {
    const upload = parseAnswer(
      assetUploadSchema,
      { uploadId: 'up', assetId: 'a', size: 12 * MIB, partSize: 5 * MIB, parts: [{ partNumber: 3, url: 'https://s3.example/p3?sig=x' }] },
      'POST',
      '/asset-uploads',
    );
    expect(upload).toMatchObject({ id: 'up', assetFileId: null, expiresAt: '', parts: [{ partNumber: 3, byteRange: { start: 10 * MIB, end: 12 * MIB } }] });
  });

  it.each([
    [{ id: 'j', state: 'COMPLETED' }, 'COMPLETED'],
    [{ id: 'j', status: 'succeeded' }, 'COMPLETED'],
    [{ id: 'j', state: 'ERROR' }, 'FAILED'],
    [{ id: 'j', state: 'PENDING' }, 'QUEUED'],
    [{ id: 'j', state: 'IN_PROGRESS' }, 'RUNNING'],
    [{ id: 'j', dateCompleted: '2026-01-01T00:00:00Z' }, 'COMPLETED'],
    [{ id: 'j' }, 'RUNNING'],
  ])('reads job %j as %s', (raw, state) => {
    expect(parseAnswer(jobSchema, { result: raw }, 'GET', '/jobs/j').state).toBe(state);
  });
});

describe('ApiError from an answer', () => {
  it('never carries a signed URL query, and keeps the service code', () => {
    const error = apiErrorFromResponse({
      method: 'GET',
      url: 'https://files.example/f/1/content?expires=1&signature=SECRET',
      status: 403,
      bodyText: JSON.stringify({ status: 403, error: 'Forbidden', message: 'expired', code: 'SIGNED_URL_EXPIRED' }),
      now: 0,
    });
    expect(error).toMatchObject({ code: 'SIGNED_URL_EXPIRED', status: 403, path: 'https://files.example/f/1/content', retryable: false });
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('SECRET');
  });

  it('derives OAUTH_ codes from RFC 6749 errors only at OAuth endpoints', () => {
    const bodyText = JSON.stringify({ error: 'invalid_grant', error_description: 'The refresh token was revoked.' });
    expect(apiErrorFromResponse({ method: 'POST', url: 'https://login.example/oauth/token', status: 400, bodyText, now: 0, oauth: true })).toMatchObject({
      code: 'OAUTH_INVALID_GRANT',
      message: expect.stringContaining('The refresh token was revoked.'),
    });
    expect(apiErrorFromResponse({ method: 'POST', url: 'https://api.example/x', status: 400, bodyText, now: 0 }).code).toBe('BAD_REQUEST');
  });

  it('reads XML and HTML error bodies as having no code', () => {
    const error = apiErrorFromResponse({ method: 'PUT', url: 'https://s3.example/b/k?X-Amz-Signature=abc', status: 503, bodyText: '<Error><Code>SlowDown</Code></Error>', retryAfter: '2', now: 0 });
    expect(error).toMatchObject({ code: 'SERVER_ERROR', retryable: true, retryAfterMs: 2000 });
    expect(describeUrl('/assets/1?x=y')).toBe('/assets/1');
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUrlSigner } from './signed-urls.js';

describe('signed URLs', () => {
  const signer = createUrlSigner('secret', { now: () => Date.UTC(2026, 0, 1) }, () => 'http://127.0.0.1:7480');

  it('writes a URL without parameters as URLSearchParams would, and verifies it', () => {
    const { url } = signer.sign('/previews/abc.webp', {}, 3600);
    const parsed = new URL(url);
    const query = Object.fromEntries(parsed.searchParams);
    expect(parsed.search).toBe(`?${new URLSearchParams(query).toString()}`);
    expect(Object.keys(query)).toEqual(['expires', 'signature']);
    expect(signer.verify('/previews/abc.webp', query, [])).toEqual({});
  });

  it('binds its parameters into the signature', () => {
    const { url } = signer.sign('/files/f1', { name: 'a b&c.png' }, 3600);
    const query = Object.fromEntries(new URL(url).searchParams);
    expect(signer.verify('/files/f1', query, ['name'])).toEqual({ name: 'a b&c.png' });
    expect(() => signer.verify('/files/f1', { ...query, name: 'other.png' }, ['name'])).toThrow();
  });

  it('signs with the secret as UTF-8 bytes, so URLs signed before a restart still verify', () => {
    const secret = 'sécret';
    const { url } = createUrlSigner(secret, { now: () => Date.UTC(2026, 0, 1) }, () => '').sign('/previews/abc.webp', {}, 3600);
    const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
    expect(query.signature).toBe(createHmac('sha256', secret).update(`/previews/abc.webp\n${query.expires ?? ''}`).digest('base64url'));
  });
});

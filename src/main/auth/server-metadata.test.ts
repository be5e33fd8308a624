import { afterEach, describe, expect, it } from 'vitest';
import { checkAuthServer } from './server-metadata.js';
import { closedPort } from '../../../test/support/closed-port.js';
import { sendJson, startFakeServer, type FakeServer } from '../../../test/support/api-client-fakes.js';

describe('checkAuthServer', () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('answers the endpoints of a server with RFC 8414 metadata', async () => {
    fake = await startFakeServer((request, response) => {
      if (request.url === '/.well-known/oauth-authorization-server') sendJson(response, 200, { authorization_endpoint: 'x/authorize', token_endpoint: 'x/oauth/token' });
      else sendJson(response, 404, {});
    });
    expect(await checkAuthServer(fake.url, { env: {} })).toEqual({ authorizationEndpoint: 'x/authorize', tokenEndpoint: 'x/oauth/token' });
  });

  it('falls back to OpenID discovery (the hosted sign-in server)', async () => {
    fake = await startFakeServer((request, response) => {
      if (request.url === '/.well-known/openid-configuration') sendJson(response, 200, { authorization_endpoint: 'a', token_endpoint: 't' });
      else sendJson(response, 404, {});
    });
    expect(await checkAuthServer(`${fake.url}/`, { env: {} })).toEqual({ authorizationEndpoint: 'a', tokenEndpoint: 't' });
  });

  it('says NOT_AN_ASSET_SERVICE for a server without sign-in metadata, sending no credentials', async () => {
    fake = await startFakeServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>a web site</html>');
    });
    const error = await checkAuthServer(fake.url, { env: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NOT_AN_ASSET_SERVICE' });
    expect((error as Error).message).toContain(`${fake.url} answers, but not as an Asset Sync or Dash sign-in server`);
    expect(fake.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('says SERVER_UNREACHABLE, naming the address, when nothing listens', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const error = await checkAuthServer(url, { env: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SERVER_UNREACHABLE' });
    expect((error as Error).message).toBe(`Can't reach ${url}: nothing is listening there (connection refused). Check the address and that the service is running.`);
  });

  it('says SERVER_TLS_ERROR when https meets a server that does not speak TLS', async () => {
    fake = await startFakeServer((_request, response) => sendJson(response, 200, {}));
    const url = fake.url.replace('http:', 'https:');
    await expect(checkAuthServer(url, { env: {} })).rejects.toMatchObject({ code: 'SERVER_TLS_ERROR' });
  });
});

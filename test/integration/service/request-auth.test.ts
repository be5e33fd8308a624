import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';

describe('bearer authentication of API routes', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const tokenFor = (sub: string, subdomain: string): Promise<string> => service.running.ctx.tokens.issue({ sub, scope: `subdomain:${subdomain}` }, 3600);

  it('answers as the member the token names, with their role in the account its scope selects', async () => {
    const { userId, token } = await addUser(service, 'viewer@example.com', 'viewer');
    const answer = await service.api('GET', '/current-user', undefined, token);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(userId);
    // A viewer may not upload: the role came from the membership.
    const upload = await service.api('POST', '/asset-uploads', { assetId: 'x', size: 1 }, token);
    expect(upload.body).toMatchObject({ status: 403 });
  });

  it('tells an unknown account from a user who is not a member of it', async () => {
    const { userId } = await addUser(service, 'member@example.com', 'member');
    const noAccount = await service.api('GET', '/current-user', undefined, await tokenFor(userId, 'nowhere'));
    expect(noAccount.body).toMatchObject({ status: 401, code: 'TOKEN_INVALID', message: 'No account with subdomain "nowhere".' });
    const stranger = await service.api('GET', '/current-user', undefined, await tokenFor('auth0|stranger', LOCAL_SUBDOMAIN));
    expect(stranger.body).toMatchObject({ status: 401, code: 'TOKEN_INVALID', message: "The token's user is not a member of that account." });
  });

  it('stops accepting a member as soon as the membership is gone', async () => {
    const { userId, token } = await addUser(service, 'leaver@example.com', 'member');
    expect((await service.api('GET', '/current-user', undefined, token)).status).toBe(200);
    const account = service.running.ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    service.running.ctx.accounts.removeMember(account?.id ?? '', userId);
    expect((await service.api('GET', '/current-user', undefined, token)).body).toMatchObject({ status: 401, code: 'TOKEN_INVALID' });
  });
});

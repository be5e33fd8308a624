import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { recordingIo } from '../../support/fake-io.js';

async function run(...argv: string[]) {
  const io = recordingIo();
  const code = await main(argv, io);
  return { code, out: io.outLines, err: io.errLines.join('\n') };
}

describe('asset-sync user', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('adds users with roles while the service runs, and their tokens carry those roles', async () => {
    const added = await run('user', 'add', '--data', service.dataDir, '--email', 'vera@example.com', '--role', 'viewer');
    expect(added.code).toBe(0);
    expect(added.out[0]).toBe('added vera@example.com as viewer');
    expect(added.out[1]).toMatch(/^password: \S{20} \(shown once/);
    expect((await run('user', 'add', '--data', service.dataDir, '--email', 'max@example.com', '--role', 'member', '--password', 'long enough')).code).toBe(0);

    const token = await run('token', '--data', service.dataDir, '--email', 'vera@example.com');
    expect(token.code).toBe(0);
    const viewer = token.out[0] ?? '';
    const me = await service.api('GET', '/current-user', undefined, viewer);
    expect(me.body.result.email).toBe('vera@example.com');
    expect(me.body.permittedActions).not.toContainEqual(expect.objectContaining({ action: 'CREATE_ASSETS' }));
    const upload = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'a', path: '/x.txt', size: 1 }] }, viewer);
    expect(upload.status).toBe(403);
    expect(upload.body.code).toBe('FORBIDDEN');

    const listed = await run('user', 'list', '--data', service.dataDir, '--json');
    expect(JSON.parse(listed.out.join('\n')).map((user: any) => [user.email, user.role])).toEqual([
      ['admin@localhost', 'admin'],
      ['max@example.com', 'member'],
      ['vera@example.com', 'viewer'],
    ]);
  });

  it('changes roles and passwords and removes users, always keeping an admin', async () => {
    expect((await run('user', 'set-role', '--data', service.dataDir, '--email', 'vera@example.com', '--role', 'member')).out).toEqual(['vera@example.com is now member']);
    const lastAdmin = await run('user', 'set-role', '--data', service.dataDir, '--email', 'admin@localhost', '--role', 'viewer');
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.err).toContain('[LAST_ADMIN]');
    expect((await run('user', 'remove', '--data', service.dataDir, '--email', 'admin@localhost')).err).toContain('[LAST_ADMIN]');

    const password = await run('user', 'set-password', '--data', service.dataDir, '--email', 'max@example.com');
    expect(password.out[0]).toMatch(/^password: /);
    expect((await run('user', 'remove', '--data', service.dataDir, '--email', 'max@example.com')).out).toEqual(['removed max@example.com']);
    const gone = await run('token', '--data', service.dataDir, '--email', 'max@example.com');
    expect(gone.code).toBe(1);
    expect(gone.err).toContain('[NO_SUCH_USER]');
  });

  it.each([
    [['user'], 2, 'an action is needed'],
    [['user', 'promote'], 2, 'unknown action "promote"'],
    [['user', 'add', '--email', 'a@b.c', '--role', 'viewer'], 2, '--data'],
    [['user', 'add', '--data', '.', '--email', 'a@b.c', '--role', 'owner'], 2, 'owner'],
    [['user', 'add', '--data', '/nonexistent/asset-sync', '--email', 'a@b.c', '--role', 'viewer'], 1, '[NO_DATA]'],
  ])('refuses %j with exit %i', async (argv, code, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(code);
    expect(result.err).toContain(message);
  });

  it('refuses a duplicate member, a bad email and a short password', async () => {
    const dataDir = service.dataDir;
    expect((await run('user', 'add', '--data', dataDir, '--email', 'vera@example.com', '--role', 'viewer')).err).toContain('[USER_EXISTS]');
    expect((await run('user', 'add', '--data', dataDir, '--email', 'not-an-email', '--role', 'viewer')).err).toContain('is not an email address');
    expect((await run('user', 'add', '--data', dataDir, '--email', 'short@example.com', '--role', 'viewer', '--password', 'abc')).err).toContain('at least 8');
  });

  it("refuses a user over the account's user quota, creating nothing", async () => {
    const accountId = service.running.ctx.accounts.bySubdomain('local')?.id ?? '';
    const quota = `/admin/accounts/${accountId}/entities/user/quota-override`;
    const used: number = (await service.api('GET', quota)).body.result.used;
    const before = (await run('user', 'list', '--data', service.dataDir)).out;
    expect(before).toHaveLength(used);
    expect((await service.api('PUT', quota, { quota: used })).status).toBe(200);
    const refused = await run('user', 'add', '--data', service.dataDir, '--email', 'one-too-many@example.com', '--role', 'viewer');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('[QUOTA_EXCEEDED]');
    expect(refused.err).toContain('Nothing was created');
    expect((await run('user', 'list', '--data', service.dataDir)).out).toEqual(before);
    expect(service.running.ctx.accounts.userByEmail('one-too-many@example.com')).toBeUndefined();
    expect((await service.api('GET', quota)).body.result.used).toBe(used);
    // One more allowed: the same command now adds the user.
    await service.api('PUT', quota, { quota: used + 1 });
    expect((await run('user', 'add', '--data', service.dataDir, '--email', 'one-too-many@example.com', '--role', 'viewer')).code).toBe(0);
    expect((await service.api('GET', quota)).body.result.used).toBe(used + 1);
  });
});

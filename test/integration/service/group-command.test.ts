import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../support/cli-runner.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';

describe('asset-sync group', () => {
  let service: TestService;
  let member: { userId: string; token: string };
  let inTeam: string;
  let inOther: string;
  beforeAll(async () => {
    service = await startTestService();
    inTeam = (await uploadNewAsset(service, '/Team/Sub/a.txt', Buffer.from('a'))).assetId;
    inOther = (await uploadNewAsset(service, '/Other/b.txt', Buffer.from('b'))).assetId;
    member = await addUser(service, 'member@example.test', 'member');
  });
  afterAll(async () => {
    await service.dispose();
  });
  const reaches = async (assetId: string) => (await service.api('GET', `/assets/${assetId}`, undefined, member.token)).status === 200;

  it('limits a group to folders while the service runs, lifts the limit and removes the group', async () => {
    const added = await cli(['group', 'add', '--data', service.dataDir, '--name', 'Team', '--member', 'member@example.test', '--folder', '/Team']);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/^added group "Team" \(/);
    expect(await reaches(inTeam)).toBe(true);
    expect(await reaches(inOther)).toBe(false);
    const listed = JSON.parse((await cli(['group', 'list', '--data', service.dataDir, '--json'])).out);
    expect(listed).toEqual([expect.objectContaining({ name: 'Team', folders: ['/Team'], members: ['member@example.test'] })]);
    // The HTTP API sees the same group.
    expect((await service.api('GET', '/groups')).body.results[0].result).toMatchObject({ name: 'Team', allFolders: false });

    const moved = await cli(['group', 'set', '--data', service.dataDir, '--name', 'Team', '--folder', '/Team/Sub', '--folder', '/Other']);
    expect(moved.out).toContain('/Other, /Team/Sub');
    expect(await reaches(inOther)).toBe(true);
    const lifted = await cli(['group', 'set', '--data', service.dataDir, '--name', 'Team', '--all-folders', '--rename', 'Everyone']);
    expect(lifted.out).toContain('all folders');
    expect((await cli(['group', 'remove', '--data', service.dataDir, '--name', 'Everyone'])).out).toBe('removed group "Everyone"');
    expect((await cli(['group', 'list', '--data', service.dataDir])).out).toBe('');
  });

  it.each([
    [['add', '--name', 'X', '--folder', '/Nowhere'], 2, 'INVALID_INPUT'],
    [['add', '--name', 'X', '--member', 'nobody@example.test'], 1, 'NO_SUCH_USER'],
    [['add', '--name', 'X', '--folder', '/Team', '--all-folders'], 2, 'USAGE'],
    [['add'], 2, 'USAGE'],
    [['set', '--name', 'Missing'], 1, 'NO_SUCH_GROUP'],
    [['remove', '--name', 'Missing'], 1, 'NO_SUCH_GROUP'],
    [['rename'], 2, 'USAGE'],
  ])('refuses group %j', async (args, code, errorCode) => {
    const [action = '', ...rest] = args;
    const run = await cli(['group', action, '--data', service.dataDir, ...rest]);
    expect(run.code).toBe(code);
    expect(run.err).toContain(`[${errorCode}]`);
  });

  it('refuses a second group of the same name', async () => {
    expect((await cli(['group', 'add', '--data', service.dataDir, '--name', 'Twice'])).code).toBe(0);
    const again = await cli(['group', 'add', '--data', service.dataDir, '--name', 'Twice']);
    expect(again.err).toContain('[GROUP_EXISTS]');
  });
});

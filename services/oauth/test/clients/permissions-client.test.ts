import { DiscordError } from '@acs/discord-errors';
import { loadPermissionsProto } from '@acs/protos';
import { createGrpcClient, PeerUnavailableError } from '@acs/service-kit';
import { createPermissionsClient } from '../../src/clients/permissions-client';
import { MANAGE_GUILD } from '../../src/domain/limits';
import { startFakePermissions, type FakePermissions } from '../support/fake-permissions-server';

const GUILD = '1600000000000000001';
const USER = '1600000000000000002';
const APP = '1600000000000000003';

/** permissions at the network edge (a real gRPC server answering from memory). */
let fake: FakePermissions;
beforeAll(async () => {
  fake = await startFakePermissions();
  fake.guilds.add(GUILD);
  fake.managers.add(`${GUILD}:${USER}`);
});
afterAll(() => fake.close());

describe('createPermissionsClient', () => {
  it("answers whether a user holds the permissions, asking for the bit set as permissions' decimal string", async () => {
    await expect(fake.client.hasPermissions(GUILD, USER, MANAGE_GUILD)).resolves.toBe(true);
    await expect(fake.client.hasPermissions(GUILD, APP, MANAGE_GUILD)).resolves.toBe(false);
    expect(fake.calls.at(-1)).toMatchObject({ guild_id: GUILD, user_id: APP, permissions: '32' });
  });

  it("rejects with permissions' own error, e.g. 404 / 10004 for a guild it does not know", async () => {
    const failure = await fake.client
      .hasPermissions('1600000000000000009', USER, MANAGE_GUILD)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DiscordError);
    expect(failure).toMatchObject({ httpStatus: 404, code: 10004 });
  });

  it('puts and removes bot members', async () => {
    const grant = { guildId: GUILD, applicationId: APP, applicationName: 'Music', permissions: '2048' };
    await fake.client.putBotMember(grant);
    expect(fake.botMembers.get(`${GUILD}:${APP}`)).toEqual({ roleName: 'Music', permissions: '2048' });
    await fake.client.removeBotMember(GUILD, APP);
    expect(fake.botMembers.has(`${GUILD}:${APP}`)).toBe(false);
  });

  it('rejects with 503 when permissions cannot be reached', async () => {
    // Port 1: nothing listens there, the connection is refused.
    const down = createGrpcClient(
      loadPermissionsProto().acs.permissions.v1.PermissionsService,
      '127.0.0.1:1',
    );
    try {
      const unreachable = createPermissionsClient(down);
      await expect(unreachable.hasPermissions(GUILD, USER, MANAGE_GUILD)).rejects.toBeInstanceOf(
        PeerUnavailableError,
      );
      await expect(unreachable.removeBotMember(GUILD, APP)).rejects.toBeInstanceOf(PeerUnavailableError);
    } finally {
      down.close();
    }
  });
});

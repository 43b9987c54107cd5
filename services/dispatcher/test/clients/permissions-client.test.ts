import { UnknownResourceError } from '@acs/discord-errors';
import { loadPermissionsProto, type permissions } from '@acs/protos';
import { createGrpcClient, createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createPermissionsClient } from '../../src/clients/permissions-client';

const GUILD = '1600000000000000001';
const CHANNEL = '1600000000000000002';
/** May view CHANNEL; OTHER may not; FLAKY's decisions fail. */
const VIEWER = '1600000000000000011';
const OTHER = '1600000000000000012';
const FLAKY = '1600000000000000013';
/** VIEWER's guilds: more than two pages of ListMemberGuilds. */
const MEMBER_GUILDS = Array.from({ length: 450 }, (_, i) => String(1600000000000001000n + BigInt(i)));
/** CheckPermissions requests the fake answered. */
const checks: permissions.CheckPermissionsRequest__Output[] = [];

let server: GrpcServer;
let grpcClient: permissions.PermissionsServiceClient;

/**
 * permissions at the network edge: one guild with one channel (any other guild or channel
 * is unknown), which VIEWER may view; VIEWER is in MEMBER_GUILDS.
 */
beforeAll(async () => {
  const proto = loadPermissionsProto().acs.permissions.v1;
  server = createGrpcServer({
    logger: createLogger('fake-permissions', 'silent'),
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: proto.PermissionsService.service,
        handlers: {
          async GetGuild(
            request: permissions.GetGuildRequest__Output,
          ): Promise<permissions.GetGuildResponse> {
            if (request.guild_id !== GUILD) throw new UnknownResourceError(10004, 'Unknown Guild');
            return {
              guild_json: JSON.stringify({ id: GUILD, name: 'Guild', roles: [] }),
              owner_id: '1',
              channels_json: request.with_channels ? JSON.stringify([{ id: '2', type: 0 }]) : '',
              member_count: request.with_channels ? 3 : 0,
            };
          },
          async ListMemberGuilds(
            request: permissions.ListMemberGuildsRequest__Output,
          ): Promise<permissions.ListMemberGuildsResponse> {
            const mine = request.user_id === VIEWER ? MEMBER_GUILDS : [];
            const page = mine.filter((id) => request.after === '' || BigInt(id) > BigInt(request.after));
            const guilds = page.slice(0, request.limit).map((id) => ({ id, name: `Guild ${id}` }));
            return { guilds_json: JSON.stringify(guilds) };
          },
          async CheckPermissions(
            request: permissions.CheckPermissionsRequest__Output,
          ): Promise<permissions.CheckPermissionsResponse> {
            checks.push(request);
            if (request.guild_id !== GUILD) throw new UnknownResourceError(10004, 'Unknown Guild');
            if (request.channel_id !== CHANNEL) throw new UnknownResourceError(10003, 'Unknown Channel');
            if (request.user_id === FLAKY) throw new Error('database on fire');
            const allowed = request.user_id === VIEWER && request.permissions === String(1 << 10);
            return { allowed, missing: allowed ? '0' : request.permissions, is_member: true };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  grpcClient = createGrpcClient(proto.PermissionsService, `127.0.0.1:${port}`);
});

afterAll(async () => {
  grpcClient?.close();
  await server?.drain();
});

describe('createPermissionsClient', () => {
  it('reads a guild with its channels in one call, and an unknown guild as undefined', async () => {
    const client = createPermissionsClient(grpcClient);
    await expect(client.guild(GUILD)).resolves.toEqual({
      guild: { id: GUILD, name: 'Guild', roles: [] },
      channels: [{ id: '2', type: 0 }],
      memberCount: 3,
    });
    await expect(client.guild('1600000000000000009')).resolves.toBeUndefined();
  });

  it('lists every guild of a user, page after page, and none of a user who is in none', async () => {
    const client = createPermissionsClient(grpcClient);
    const guilds = await client.memberGuilds(VIEWER);
    expect(guilds.map((g) => g.id)).toEqual(MEMBER_GUILDS);
    expect(guilds[0]).toEqual({ id: MEMBER_GUILDS[0], name: `Guild ${MEMBER_GUILDS[0]}` });
    await expect(client.memberGuilds(OTHER)).resolves.toEqual([]);
  });

  it('decides VIEW_CHANNEL in the channel, once for concurrent and repeated askers; no one views an unknown channel', async () => {
    const client = createPermissionsClient(grpcClient);
    checks.length = 0;
    const decisions = await Promise.all([
      client.canViewChannel(VIEWER, GUILD, CHANNEL),
      client.canViewChannel(VIEWER, GUILD, CHANNEL),
      client.canViewChannel(OTHER, GUILD, CHANNEL),
    ]);
    expect(decisions).toEqual([true, true, false]);
    await expect(client.canViewChannel(VIEWER, GUILD, CHANNEL)).resolves.toBe(true);
    expect(checks).toEqual([
      { guild_id: GUILD, user_id: VIEWER, permissions: '1024', channel_id: CHANNEL },
      { guild_id: GUILD, user_id: OTHER, permissions: '1024', channel_id: CHANNEL },
    ]);
    await expect(client.canViewChannel(VIEWER, GUILD, '1600000000000000009')).resolves.toBe(false);
    await expect(client.canViewChannel(VIEWER, '1600000000000000009', CHANNEL)).resolves.toBe(false);
  });

  it('rejects when permissions fails, and asks again next time', async () => {
    const client = createPermissionsClient(grpcClient);
    checks.length = 0;
    await expect(client.canViewChannel(FLAKY, GUILD, CHANNEL)).rejects.toBeDefined();
    await expect(client.canViewChannel(FLAKY, GUILD, CHANNEL)).rejects.toBeDefined();
    expect(checks).toHaveLength(2);
  });
});

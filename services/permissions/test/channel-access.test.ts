import { callUnary } from '@acs/service-kit';
import { PERMISSION_FLAGS as P } from '../src/domain/permission-flags';
import { DM_USER_PERMISSIONS } from '../src/domain/dm/dm-permissions';
import { startTestServer, type TestServer } from './support/start-test-server';
import { errorOf } from './support/errors';
import { createStoreFixture, type StoreFixture } from './support/test-database';

// DescribeChannelAccess: a user's place in a guild channel or a DM, for interactions' pin
// routes (PIN_MESSAGES, which MANAGE_MESSAGES no longer implies).

const OWNER = '4000';
const PINNER = '4001';
const MODERATOR = '4002';
const FRIEND = '4003';

let db: StoreFixture;
let server: TestServer;

beforeAll(async () => {
  db = await createStoreFixture();
  server = await startTestServer(db);
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

it('answers the channel permissions of members, nothing for strangers, the DM set for recipients', async () => {
  const { client } = server;
  const call = async <T>(method: keyof typeof client, body: object): Promise<T> =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (await callUnary(client, (client as any)[method], body)) as T;
  const guild = JSON.parse(
    (
      await call<{ guild_json: string }>('CreateGuild', {
        body_json: JSON.stringify({ name: 'Pins', owner_id: OWNER }),
      })
    ).guild_json,
  );
  const role = async (permissions: bigint) =>
    JSON.parse(
      (
        await call<{ role_json: string }>('CreateRole', {
          guild_id: guild.id,
          body_json: JSON.stringify({ name: 'r', permissions: permissions.toString() }),
        })
      ).role_json,
    );
  const pinners = await role(P.PIN_MESSAGES);
  const moderators = await role(P.MANAGE_MESSAGES);
  const text = JSON.parse(
    (
      await call<{ channel_json: string }>('CreateChannel', {
        guild_id: guild.id,
        body_json: JSON.stringify({ name: 'chat', type: 0 }),
      })
    ).channel_json,
  );
  await call('PutMember', {
    guild_id: guild.id,
    user_id: PINNER,
    body_json: JSON.stringify({ roles: [pinners.id] }),
  });
  await call('PutMember', {
    guild_id: guild.id,
    user_id: MODERATOR,
    body_json: JSON.stringify({ roles: [moderators.id] }),
  });
  const describe = (channelId: string, userId: string) =>
    callUnary(client, client.DescribeChannelAccess, { channel_id: channelId, user_id: userId });

  const pinner = await describe(text.id, PINNER);
  expect(pinner).toMatchObject({ guild_id: guild.id, is_member: true, recipient_ids: [] });
  expect(BigInt(pinner.permissions) & P.PIN_MESSAGES).toBe(P.PIN_MESSAGES);
  // MANAGE_MESSAGES alone grants no pinning.
  const moderator = await describe(text.id, MODERATOR);
  expect(BigInt(moderator.permissions) & P.MANAGE_MESSAGES).toBe(P.MANAGE_MESSAGES);
  expect(BigInt(moderator.permissions) & P.PIN_MESSAGES).toBe(0n);
  expect(await describe(text.id, '4999')).toMatchObject({ is_member: false, permissions: '0' });

  const group = JSON.parse(
    (
      await call<{ channel_json: string }>('OpenDmChannel', {
        user_id: OWNER,
        body_json: JSON.stringify({ recipients: [FRIEND, PINNER] }),
      })
    ).channel_json,
  );
  expect(await describe(group.id, FRIEND)).toEqual({
    guild_id: '',
    is_member: true,
    permissions: DM_USER_PERMISSIONS.toString(),
    recipient_ids: [OWNER, PINNER, FRIEND],
    // Create Message's and AutoMod's fields: empty for a DM.
    member_json: '',
    known_role_ids: [],
    member_role_ids: [],
  });
  expect(DM_USER_PERMISSIONS & P.PIN_MESSAGES).toBe(P.PIN_MESSAGES);
  expect(await describe(group.id, MODERATOR)).toMatchObject({ is_member: false, permissions: '0' });

  expect(await errorOf(describe('123', OWNER))).toMatchObject({ httpStatus: 404, code: 10003 });
  expect(await errorOf(describe('x', OWNER))).toMatchObject({ httpStatus: 400, code: 50035 });
  expect(await errorOf(describe(text.id, '18446744073709551616'))).toMatchObject({
    httpStatus: 400,
    code: 50035,
  });
});

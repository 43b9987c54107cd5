import { callUnary } from '@acs/service-kit';
import { startTestServer, type TestServer } from './support/start-test-server';
import { errorOf } from './support/errors';
import { createStoreFixture, type StoreFixture } from './support/test-database';

// DescribeLinkableChannel: the guild text channel a lobby member links (lobby's channel
// linking), which the user must be able to manage.

const OWNER = '3000';
const MEMBER = '3001';

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

it('describes a text channel to who may manage it, and refuses everyone and everything else', async () => {
  const { client } = server;
  const guild = JSON.parse(
    (
      await callUnary(client, client.CreateGuild, {
        body_json: JSON.stringify({ name: 'Links', owner_id: OWNER }),
      })
    ).guild_json,
  );
  const channel = async (body: object) =>
    JSON.parse(
      (await callUnary(client, client.CreateChannel, { guild_id: guild.id, body_json: JSON.stringify(body) }))
        .channel_json,
    );
  const text = await channel({ name: 'chat', type: 0 });
  const voice = await channel({ name: 'talk', type: 2 });
  await callUnary(client, client.PutMember, { guild_id: guild.id, user_id: MEMBER, body_json: '' });
  const describe = (channelId: string, userId: string) =>
    callUnary(client, client.DescribeLinkableChannel, { channel_id: channelId, user_id: userId });

  const linkable = await describe(text.id, OWNER);
  expect(linkable.guild_id).toBe(guild.id);
  expect(JSON.parse(linkable.channel_json)).toMatchObject({
    id: text.id,
    type: 0,
    guild_id: guild.id,
    name: 'chat',
  });

  // A member without MANAGE_CHANNELS, a stranger, a voice channel, an unknown channel, a bad id.
  expect(await errorOf(describe(text.id, MEMBER))).toMatchObject({ httpStatus: 403, code: 50013 });
  expect(await errorOf(describe(text.id, '3999'))).toMatchObject({ httpStatus: 403, code: 50013 });
  expect(await errorOf(describe(voice.id, OWNER))).toMatchObject({ httpStatus: 400, code: 50035 });
  expect(await errorOf(describe('123', OWNER))).toMatchObject({ httpStatus: 404, code: 10003 });
  expect(await errorOf(describe('x', OWNER))).toMatchObject({ httpStatus: 400, code: 50035 });
});

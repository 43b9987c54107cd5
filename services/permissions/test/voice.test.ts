import { callUnary } from '@acs/service-kit';
import { startTestServer, type TestServer } from './support/start-test-server';
import { errorOf } from './support/errors';
import { createStoreFixture, type StoreFixture } from './support/test-database';

// Voice: op 4's voice states, PUT /channels/{id}/voice-status, op 43's channel info, and
// ListGuildBots, with the events each change writes to the outbox.

const OWNER = '4000';
const BOT = '4001';
const OTHER_BOT = '4002';
const STRANGER = '4999';
const SET_VOICE_CHANNEL_STATUS = 1n << 48n;
const MANAGE_CHANNELS = 1n << 4n;
const CONNECT = 1n << 20n;
const VIEW_CHANNEL = 1n << 10n;

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

/** The outbox's events of one subject suffix, oldest first. */
async function outbox(suffix: string): Promise<Record<string, unknown>[]> {
  const rows = await db.prisma.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
  return rows
    .filter((row) => row.subject.endsWith(suffix))
    .map((row) => (row.payload as { data: Record<string, unknown> }).data);
}

it('records voice states, starts and ends voice sessions, and sets statuses under the permission rules', async () => {
  const { client } = server;
  const guild = JSON.parse(
    (
      await callUnary(client, client.CreateGuild, {
        body_json: JSON.stringify({ name: 'Voice', owner_id: OWNER }),
      })
    ).guild_json,
  );
  const channel = async (body: object) =>
    JSON.parse(
      (await callUnary(client, client.CreateChannel, { guild_id: guild.id, body_json: JSON.stringify(body) }))
        .channel_json,
    );
  const text = await channel({ name: 'chat', type: 0 });
  const talk = await channel({ name: 'talk', type: 2 });
  const stage = await channel({ name: 'stage', type: 13 });
  const locked = await channel({
    name: 'locked',
    type: 2,
    permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: CONNECT.toString() }],
  });
  const hidden = await channel({
    name: 'hidden',
    type: 2,
    permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() }],
  });
  // The bot holds SET_VOICE_CHANNEL_STATUS only; the other bot has MANAGE_CHANNELS too.
  for (const [bot, permissions] of [
    [BOT, VIEW_CHANNEL | CONNECT | SET_VOICE_CHANNEL_STATUS],
    [OTHER_BOT, VIEW_CHANNEL | CONNECT | SET_VOICE_CHANNEL_STATUS | MANAGE_CHANNELS],
  ] as const) {
    await callUnary(client, client.PutBotMember, {
      guild_id: guild.id,
      application_id: bot,
      application_name: `bot ${bot}`,
      permissions: permissions.toString(),
    });
  }

  const bots = await callUnary(client, client.ListGuildBots, { guild_ids: [guild.id, '1234'] });
  expect(bots.guilds).toEqual([
    { guild_id: guild.id, application_ids: [BOT, OTHER_BOT] },
    { guild_id: '1234', application_ids: [] },
  ]);

  const setStatus = (channelId: string, userId: string, body: unknown) =>
    callUnary(client, client.SetVoiceChannelStatus, {
      channel_id: channelId,
      user_id: userId,
      body_json: typeof body === 'string' ? body : JSON.stringify(body),
    });
  // Not connected: MANAGE_CHANNELS is needed too.
  expect(await errorOf(setStatus(talk.id, BOT, { status: 'hi' }))).toMatchObject({
    httpStatus: 403,
    code: 50013,
  });
  await setStatus(talk.id, OTHER_BOT, { status: 'set by a manager' });

  const join = (userId: string, channelId: string, extra: object = {}) =>
    callUnary(client, client.UpdateVoiceState, {
      guild_id: guild.id,
      user_id: userId,
      channel_id: channelId,
      session_id: 's1',
      self_mute: false,
      self_deaf: true,
      ...extra,
    });
  expect(await join(BOT, talk.id)).toEqual({ changed: true });
  // Connected: SET_VOICE_CHANNEL_STATUS alone is enough.
  await setStatus(talk.id, BOT, { status: 'x'.repeat(500) });
  const info = JSON.parse(
    (await callUnary(client, client.GetChannelInfo, { guild_id: guild.id, user_id: BOT })).channels_json,
  );
  expect(info).toEqual([
    { id: talk.id, status: 'x'.repeat(500), voice_start_time: expect.any(Number) },
    { id: stage.id, status: null, voice_start_time: null },
    { id: locked.id, status: null, voice_start_time: null },
  ]);
  expect(Math.abs(info[0].voice_start_time - Date.now() / 1000)).toBeLessThan(60);
  // A channel the caller may not view is left out; its owner sees it (issue 28, finding 6).
  await setStatus(hidden.id, OWNER, { status: 'secret plans' });
  const shown = async (userId: string) =>
    JSON.parse(
      (await callUnary(client, client.GetChannelInfo, { guild_id: guild.id, user_id: userId })).channels_json,
    ).map((c: { id: string }) => c.id);
  expect(await shown(BOT)).toEqual([talk.id, stage.id, locked.id]);
  expect(await shown(OWNER)).toEqual([talk.id, stage.id, locked.id, hidden.id]);

  // Bad channels, bodies and callers.
  expect(await errorOf(join(BOT, text.id))).toMatchObject({ httpStatus: 400, code: 50024 });
  expect(await errorOf(join(BOT, locked.id))).toMatchObject({ httpStatus: 403, code: 50013 });
  expect(await errorOf(join(BOT, '99'))).toMatchObject({ httpStatus: 404, code: 10003 });
  expect(await errorOf(join(STRANGER, talk.id))).toMatchObject({ httpStatus: 404, code: 10004 });
  expect(await errorOf(setStatus(talk.id, BOT, { status: 'x'.repeat(501) }))).toMatchObject({ code: 50035 });
  expect(await errorOf(setStatus(talk.id, BOT, { status: 5 }))).toMatchObject({ code: 50035 });
  expect(await errorOf(setStatus(talk.id, BOT, { status: 'a\u0000b' }))).toMatchObject({ code: 50035 });
  expect(await errorOf(setStatus(talk.id, BOT, '[1]'))).toMatchObject({ httpStatus: 400 });
  expect(await errorOf(setStatus(text.id, BOT, { status: 'a' }))).toMatchObject({
    httpStatus: 400,
    code: 50024,
  });
  expect(await errorOf(setStatus(talk.id, STRANGER, { status: 'a' }))).toMatchObject({
    httpStatus: 403,
    code: 50001,
  });
  expect(await errorOf(setStatus('18446744073709551616', BOT, { status: 'a' }))).toMatchObject({
    httpStatus: 400,
  });
  expect(await errorOf(setStatus('77', BOT, { status: 'a' }))).toMatchObject({
    httpStatus: 404,
    code: 10003,
  });
  expect(
    await errorOf(callUnary(client, client.GetChannelInfo, { guild_id: guild.id, user_id: STRANGER })),
  ).toMatchObject({ httpStatus: 404, code: 10004 });

  // Leaving empties the channel: its session and status end.
  expect(await join(BOT, '')).toEqual({ changed: true });
  expect(await join(BOT, '')).toEqual({ changed: false });
  const after = JSON.parse(
    (await callUnary(client, client.GetChannelInfo, { guild_id: guild.id, user_id: BOT })).channels_json,
  );
  expect(after[0]).toEqual({ id: talk.id, status: null, voice_start_time: null });

  const states = await outbox('voice_state.updated');
  expect(states).toEqual([
    expect.objectContaining({
      guild_id: guild.id,
      channel_id: talk.id,
      user_id: BOT,
      self_deaf: true,
      session_id: 's1',
    }),
    expect.objectContaining({ guild_id: guild.id, channel_id: null, user_id: BOT }),
  ]);
  expect(await outbox('voice_channel.start_time_updated')).toEqual([
    { id: talk.id, guild_id: guild.id, voice_start_time: info[0].voice_start_time },
    { id: talk.id, guild_id: guild.id, voice_start_time: null },
  ]);
  expect(await outbox('voice_channel.status_updated')).toEqual([
    { id: talk.id, guild_id: guild.id, status: 'set by a manager' },
    { id: talk.id, guild_id: guild.id, status: 'x'.repeat(500) },
    { id: hidden.id, guild_id: guild.id, status: 'secret plans' },
    { id: talk.id, guild_id: guild.id, status: null },
  ]);
});

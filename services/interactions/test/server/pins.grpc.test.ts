import type { interactions } from '@acs/protos';
import { PERMISSION_FLAGS as P } from '@acs/validation';
import { outboxEvents } from '../store/open-interaction-store';
import {
  APP,
  BOT,
  CHANNEL,
  GUILD,
  OTHER_APP,
  USER,
  openResponseStores,
  recordInteraction,
  type ResponseContext,
} from '../store/response-fixtures';
import { serveResponses, type ResponsesOverGrpc } from './serve-responses';

// SetMessagePinned and ListPinnedMessages over gRPC against PostgreSQL, with permissions
// faked at its client interface: PIN_MESSAGES (not MANAGE_MESSAGES) pins, CHANNEL_PINS_UPDATE's
// event goes out with each change, the list pages newest pin first.

let ctx: ResponseContext;
let server: ResponsesOverGrpc;

beforeAll(async () => {
  ctx = await openResponseStores();
  server = await serveResponses(ctx, BOT);
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});

const VIEW = P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;
const inGuild = (permissions: bigint) => ({ guildId: GUILD, isMember: true, permissions, recipientIds: [] });

/** A message the app posted in CHANNEL (its interaction's response); ephemeral with flags 64. */
async function postMessage(flags = 0): Promise<string> {
  const interaction = await recordInteraction(ctx);
  const answer = await server.call<
    interactions.CreateCallbackRequest,
    interactions.CreateCallbackResponse__Output
  >('CreateCallback', {
    interaction_id: interaction.id,
    token: interaction.token,
    body_json: JSON.stringify({ type: 4, data: { content: 'pin me', flags } }),
    with_response: true,
  });
  return (JSON.parse(answer.response_json) as { resource: { message: { id: string } } }).resource.message.id;
}

const setPinned = (messageId: string, pinned: boolean, channelId = CHANNEL, applicationId = APP) =>
  server.call<interactions.SetMessagePinnedRequest, interactions.SetMessagePinnedResponse__Output>(
    'SetMessagePinned',
    {
      channel_id: channelId,
      message_id: messageId,
      user_id: applicationId,
      application_id: applicationId,
      pinned,
    },
  );
const listPins = async (before = '', limit = 50) =>
  JSON.parse(
    (
      await server.call<
        interactions.ListPinnedMessagesRequest,
        interactions.ListPinnedMessagesResponse__Output
      >('ListPinnedMessages', { channel_id: CHANNEL, user_id: APP, before, limit })
    ).pins_json,
  ) as { items: { pinned_at: string; message: { id: string; pinned: boolean } }[]; has_more: boolean };
const pinEvents = async () =>
  (await outboxEvents(ctx.pool)).filter((e) => e.subject === 'acs.interactions.channel.pins_updated');

describe('pins', () => {
  it('needs PIN_MESSAGES: MANAGE_MESSAGES alone is 50013, no VIEW_CHANNEL is 50001, and nothing changes', async () => {
    const id = await postMessage();
    server.channelAccess.current = inGuild(VIEW | P.MANAGE_MESSAGES);
    expect(await server.errorOf(setPinned(id, true))).toMatchObject({
      httpStatus: 403,
      code: 50013,
      message: 'Missing Permissions: PIN_MESSAGES',
    });
    server.channelAccess.current = inGuild(P.PIN_MESSAGES);
    expect(await server.errorOf(setPinned(id, true))).toMatchObject({ httpStatus: 403, code: 50001 });
    server.channelAccess.current = { ...inGuild(VIEW | P.PIN_MESSAGES), isMember: false };
    expect(await server.errorOf(setPinned(id, true))).toMatchObject({ httpStatus: 403, code: 50001 });
    server.channelAccess.current = undefined;
    expect(await server.errorOf(setPinned(id, true))).toMatchObject({ httpStatus: 404, code: 10003 });
    server.channelAccess.current = inGuild(VIEW | P.PIN_MESSAGES);
    expect((await listPins()).items.map((item) => item.message.id)).not.toContain(id);
  });

  it('pins and unpins with PIN_MESSAGES, with CHANNEL_PINS_UPDATE events, and lists newest first', async () => {
    server.channelAccess.current = inGuild(VIEW | P.PIN_MESSAGES);
    const before = (await pinEvents()).length;
    const first = await postMessage();
    const second = await postMessage();
    await expect(setPinned(first, true)).resolves.toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 5));
    await setPinned(second, true, CHANNEL, OTHER_APP);
    // Pinning a pinned message again changes nothing and announces nothing.
    await setPinned(second, true);

    const pins = await listPins();
    expect(pins.items.slice(0, 2).map((item) => item.message.id)).toEqual([second, first]);
    expect(pins.items[0]?.message.pinned).toBe(true);
    expect(pins.items[0]?.pinned_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/);

    const events = (await pinEvents()).slice(before);
    expect(events).toHaveLength(2);
    expect(events[0]?.data).toMatchObject({
      application_ids: [APP],
      channel_id: CHANNEL,
      guild_id: GUILD,
      recipient_ids: [],
      last_pin_timestamp: expect.any(String),
    });
    // A bot that pins another app's message is told too.
    expect(events[1]?.data.application_ids).toEqual([APP, OTHER_APP]);

    // Paging: `before` the newest pin's time, and a limit of 1 says more remain.
    const page = await listPins('', 1);
    expect(page).toMatchObject({ has_more: true });
    expect(page.items.map((item) => item.message.id)).toEqual([second]);
    const older = await listPins(page.items[0]!.pinned_at, 50);
    expect(older.items.map((item) => item.message.id)).toContain(first);
    expect(older.items.map((item) => item.message.id)).not.toContain(second);

    await setPinned(second, false);
    await setPinned(second, false);
    const unpinned = (await pinEvents()).slice(before);
    expect(unpinned).toHaveLength(3);
    expect(unpinned[2]?.data.last_pin_timestamp).toBe(events[0]?.data.last_pin_timestamp);
    expect((await listPins()).items.map((item) => item.message.id)).not.toContain(second);
  });

  it('answers 10008 for an ephemeral, unknown or other channel message; 50035 for bad ids and before', async () => {
    server.channelAccess.current = inGuild(VIEW | P.PIN_MESSAGES);
    const ephemeral = await postMessage(64);
    expect(await server.errorOf(setPinned(ephemeral, true))).toMatchObject({ httpStatus: 404, code: 10008 });
    expect(await server.errorOf(setPinned('1500000000000009999', true))).toMatchObject({ code: 10008 });
    const mine = await postMessage();
    expect(await server.errorOf(setPinned(mine, true, '1500000000000000201'))).toMatchObject({ code: 10008 });
    for (const bad of ['x', '18446744073709551616', '']) {
      expect(await server.errorOf(setPinned(bad, true))).toMatchObject({ httpStatus: 400, code: 50035 });
    }
    expect(await server.errorOf(listPins('yesterday'))).toMatchObject({
      httpStatus: 400,
      code: 50035,
      errors: { before: { _errors: [{ code: 'DATE_TIME_TYPE_PARSE' }] } },
    });
    expect(await server.errorOf(listPins('', 51))).toMatchObject({ httpStatus: 400, code: 50035 });
  });

  it('lists nothing without READ_MESSAGE_HISTORY, and refuses who cannot view the channel', async () => {
    server.channelAccess.current = inGuild(VIEW | P.PIN_MESSAGES);
    await setPinned(await postMessage(), true);
    server.channelAccess.current = inGuild(P.VIEW_CHANNEL);
    expect(await listPins()).toEqual({ items: [], has_more: false });
    server.channelAccess.current = inGuild(P.READ_MESSAGE_HISTORY);
    expect(await server.errorOf(listPins())).toMatchObject({ httpStatus: 403, code: 50001 });
  });

  it('tells a DM pin to the recipients', async () => {
    const interaction = await recordInteraction(ctx, { guildId: null, recipientIds: [USER.id, APP] });
    const answer = await server.call<
      interactions.CreateCallbackRequest,
      interactions.CreateCallbackResponse__Output
    >('CreateCallback', {
      interaction_id: interaction.id,
      token: interaction.token,
      body_json: JSON.stringify({ type: 4, data: { content: 'dm' } }),
      with_response: true,
    });
    const id = (JSON.parse(answer.response_json) as { resource: { message: { id: string } } }).resource
      .message.id;
    server.channelAccess.current = {
      guildId: null,
      isMember: true,
      permissions: VIEW | P.PIN_MESSAGES,
      recipientIds: [USER.id, APP],
    };
    await setPinned(id, true);
    const events = await pinEvents();
    expect(events[events.length - 1]?.data).toMatchObject({ guild_id: null, recipient_ids: [USER.id, APP] });
  });
});

import { botSessionReceives, userSessionReceives } from '../../src/domain/gateway-route';
import {
  INTERACTION_EVENTS,
  isInteractionEvent,
  planInteractionEvent,
  type InteractionEvent,
} from '../../src/domain/plan-interaction-event';
import { DISPATCHED_EVENTS } from '../../src/domain/plan-event';

const APP = '1800000000000000001';
const USER = '1800000000000000002';
const OTHER = '1800000000000000003';
const GUILD = String(5n << 22n); // shard 1 of 2
const CHANNEL = '1800000000000000005';
const audience = {
  interaction_id: '1800000000000000010',
  application_id: APP,
  user_id: USER,
  session_id: 'abc',
  nonce: '42',
  guild_id: GUILD,
  channel_id: CHANNEL,
};
const message = { id: '1800000000000000020', channel_id: CHANNEL, content: 'pong', flags: 0 };
const messageAudience = {
  application_id: APP,
  channel_id: CHANNEL,
  guild_id: GUILD,
  ephemeral_user_id: null,
  recipient_ids: [],
};

/** An event of the catalog as the consumer hands it over. */
function event<E extends InteractionEvent>(name: E['name'], data: E['data']): InteractionEvent {
  return { id: 'e1', name, occurredAt: '2026-01-01T00:00:00.000Z', data } as InteractionEvent;
}

describe('planInteractionEvent', () => {
  it('is dispatched for every interactions event of the catalog', () => {
    expect(DISPATCHED_EVENTS).toEqual(expect.arrayContaining([...INTERACTION_EVENTS]));
    expect(isInteractionEvent(event('interactions.interaction.succeeded', audience))).toBe(true);
  });

  it("sends the user's events to the session the invocation named, with its nonce", () => {
    expect(planInteractionEvent(event('interactions.interaction.succeeded', audience))).toEqual([
      {
        to: 'user',
        userId: USER,
        message: {
          t: 'INTERACTION_SUCCESS',
          d: { id: audience.interaction_id, nonce: '42' },
          sessionId: 'abc',
        },
      },
    ]);
    expect(
      planInteractionEvent(
        event('interactions.interaction.failed', {
          ...audience,
          session_id: null,
          nonce: null,
          reason_code: 2,
        }),
      ),
    ).toEqual([
      {
        to: 'user',
        userId: USER,
        message: {
          t: 'INTERACTION_FAILURE',
          d: { id: audience.interaction_id, nonce: null, reason_code: 2 },
          sessionId: null,
        },
      },
    ]);
    const choices = [{ name: 'one', value: '1' }];
    expect(
      planInteractionEvent(event('interactions.autocomplete.answered', { ...audience, choices })),
    ).toEqual([
      {
        to: 'user',
        userId: USER,
        message: {
          t: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
          d: { choices, nonce: '42' },
          sessionId: 'abc',
        },
      },
    ]);
    const modal = {
      custom_id: 'form',
      title: 'Tell us',
      components: [
        { type: 18, id: 1, label: 'Name', component: { type: 4, id: 2, custom_id: 'n', style: 1 } },
      ],
      application: { id: audience.application_id, name: 'Bot' },
    };
    expect(planInteractionEvent(event('interactions.modal.created', { ...audience, ...modal }))).toEqual([
      {
        to: 'user',
        userId: USER,
        message: {
          t: 'INTERACTION_MODAL_CREATE',
          d: { id: audience.interaction_id, channel_id: audience.channel_id, ...modal, nonce: '42' },
          sessionId: 'abc',
        },
      },
    ]);
  });

  it('gives the bot the full interaction only when it goes over the gateway, on the guild or DM shard', () => {
    const payload = { id: audience.interaction_id, token: 'secret', type: 2 };
    const created = (guildId: string | null, botPayload: Record<string, unknown> | null) =>
      planInteractionEvent(
        event('interactions.interaction.created', {
          ...audience,
          guild_id: guildId,
          type: 2,
          bot_payload: botPayload,
        }),
      );
    expect(created(GUILD, payload)).toEqual([
      {
        to: 'user',
        userId: USER,
        message: {
          t: 'INTERACTION_CREATE',
          d: { id: audience.interaction_id, nonce: '42' },
          sessionId: 'abc',
        },
      },
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'INTERACTION_CREATE', d: payload, guildId: GUILD },
      },
    ]);
    expect(created(null, payload)[1]).toMatchObject({ message: { guildId: null } });
    expect(created(GUILD, null).map((route) => route.to)).toEqual(['user']);
  });

  it('sends a guild message to who may view the channel and to the bot with GUILD_MESSAGES', () => {
    const routes = planInteractionEvent(
      event('interactions.message.created', { ...messageAudience, message }),
    );
    const d = { ...message, guild_id: GUILD };
    expect(routes).toEqual([
      { to: 'channel-viewers', message: { t: 'MESSAGE_CREATE', d, guildId: GUILD, channelId: CHANNEL } },
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'MESSAGE_CREATE', d, guildId: GUILD, intent: 1 << 9 },
      },
    ]);
  });

  it("sends a DM's message to its recipients (the bot as the bot) with DIRECT_MESSAGES on shard 0", () => {
    const dm = { ...messageAudience, guild_id: null, recipient_ids: [USER, APP, USER] };
    const routes = planInteractionEvent(event('interactions.message.updated', { ...dm, message }));
    expect(routes).toEqual([
      { to: 'user', userId: USER, message: { t: 'MESSAGE_UPDATE', d: message, sessionId: null } },
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'MESSAGE_UPDATE', d: message, guildId: null, intent: 1 << 12 },
      },
    ]);
  });

  it('sends an ephemeral message to its user alone, not even to the bot', () => {
    for (const guildId of [GUILD, null]) {
      const ephemeral = {
        ...messageAudience,
        guild_id: guildId,
        ephemeral_user_id: OTHER,
        recipient_ids: guildId ? [] : [USER, OTHER],
      };
      const routes = planInteractionEvent(
        event('interactions.message.deleted', { ...ephemeral, message_id: message.id }),
      );
      const d = guildId
        ? { id: message.id, channel_id: CHANNEL, guild_id: GUILD }
        : { id: message.id, channel_id: CHANNEL };
      expect(routes).toEqual([
        { to: 'user', userId: OTHER, message: { t: 'MESSAGE_DELETE', d, sessionId: null } },
      ]);
    }
  });
});

describe('CHANNEL_PINS_UPDATE', () => {
  const pins = {
    application_ids: [APP, OTHER],
    channel_id: CHANNEL,
    last_pin_timestamp: '2026-11-24T13:00:00.000Z',
  };

  it('goes to the channel viewers and each bot told, with GUILDS on the guild shard', () => {
    const routes = planInteractionEvent(
      event('interactions.channel.pins_updated', { ...pins, guild_id: GUILD, recipient_ids: [] }),
    );
    const d = { guild_id: GUILD, channel_id: CHANNEL, last_pin_timestamp: pins.last_pin_timestamp };
    expect(routes).toEqual([
      { to: 'channel-viewers', message: { t: 'CHANNEL_PINS_UPDATE', d, guildId: GUILD, channelId: CHANNEL } },
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'CHANNEL_PINS_UPDATE', d, guildId: GUILD, intent: 1 },
      },
      {
        to: 'bot',
        applicationId: OTHER,
        message: { kind: 'dispatch', t: 'CHANNEL_PINS_UPDATE', d, guildId: GUILD, intent: 1 },
      },
    ]);
  });

  it("goes to a DM's recipients (the bots as bots) with DIRECT_MESSAGES, without guild_id", () => {
    const routes = planInteractionEvent(
      event('interactions.channel.pins_updated', {
        ...pins,
        application_ids: [APP],
        guild_id: null,
        recipient_ids: [USER, APP],
        last_pin_timestamp: null,
      }),
    );
    const d = { channel_id: CHANNEL, last_pin_timestamp: null };
    expect(routes).toEqual([
      { to: 'user', userId: USER, message: { t: 'CHANNEL_PINS_UPDATE', d, sessionId: null } },
      {
        to: 'bot',
        applicationId: APP,
        message: { kind: 'dispatch', t: 'CHANNEL_PINS_UPDATE', d, guildId: null, intent: 1 << 12 },
      },
    ]);
  });
});

describe('routing on a session', () => {
  const dispatch = { kind: 'dispatch' as const, t: 'X', d: null };

  it("sends a bot dispatch to the guild's shard, a DM's to shard 0, and only with the intent", () => {
    const shard0 = { shard: [0, 2] as [number, number], intents: 1 << 9 };
    const shard1 = { shard: [1, 2] as [number, number], intents: 1 << 9 };
    expect(botSessionReceives(shard1, { ...dispatch, guildId: GUILD })).toBe(true);
    expect(botSessionReceives(shard0, { ...dispatch, guildId: GUILD })).toBe(false);
    expect(botSessionReceives(shard0, { ...dispatch, guildId: null })).toBe(true);
    expect(botSessionReceives(shard1, { ...dispatch, guildId: null })).toBe(false);
    expect(botSessionReceives({ shard: null, intents: 0 }, { ...dispatch, guildId: null })).toBe(true);
    expect(botSessionReceives(shard1, { ...dispatch, guildId: GUILD, intent: 1 << 9 })).toBe(true);
    expect(botSessionReceives(shard1, { ...dispatch, guildId: GUILD, intent: 1 << 12 })).toBe(false);
    expect(botSessionReceives(shard0, dispatch)).toBe(true);
  });

  it("sends a user dispatch to the named session, or to every one of the user's", () => {
    expect(userSessionReceives({ id: 'a' }, { t: 'X', d: null, sessionId: 'a' })).toBe(true);
    expect(userSessionReceives({ id: 'b' }, { t: 'X', d: null, sessionId: 'a' })).toBe(false);
    expect(userSessionReceives({ id: 'b' }, { t: 'X', d: null, sessionId: null })).toBe(true);
  });
});

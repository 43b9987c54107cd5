import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createEvent, EVENT_CATALOG, isEventName, type EventName, type EventPayload } from '../src';

const authorized: EventPayload<'oauth.application.authorized'> = {
  application_id: '4000',
  integration_type: 0,
  user_id: '1000',
  scopes: ['bot', 'applications.commands'],
  guild_id: '2000',
};

describe('createEvent', () => {
  it('builds the outbox row: subject acs.<name>, the envelope, the row id as event id', () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const row = createEvent('oauth.application.authorized', authorized, now);
    expect(row).toEqual({
      id: row.payload.id,
      subject: 'acs.oauth.application.authorized',
      payload: {
        id: row.id,
        type: 'application.authorized',
        occurred_at: now.toISOString(),
        data: authorized,
      },
      traceContext: null,
    });
    expect(createEvent('command-registry.command.deleted', deleted).subject).toBe(
      'acs.command-registry.command.deleted',
    );
  });

  it('refuses data its schema refuses, before anything is written', () => {
    expect(() =>
      createEvent('oauth.application.bot_token_reset', { application_id: 'not-a-snowflake' }),
    ).toThrow(/application_id/);
    expect(() =>
      createEvent('oauth.application.credentials_changed', { application_id: '1', changed: [] }),
    ).toThrow();
  });

  it('records the trace context of the running code', () => {
    // What the OpenTelemetry SDK installs in a service.
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      expect(
        createEvent('oauth.application.bot_token_reset', { application_id: '1' }).traceContext,
      ).toBeNull();
      const span = trace.wrapSpanContext({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: TraceFlags.SAMPLED,
      });
      const row = context.with(trace.setSpan(context.active(), span), () =>
        createEvent('oauth.application.bot_token_reset', { application_id: '1' }),
      );
      expect(row.traceContext).toEqual({
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      });
    } finally {
      propagation.disable();
      context.disable();
    }
  });

  it('is typed by the catalog: a wrong name or payload does not compile', () => {
    // Each line below is a compile error; the test only runs them through the type checker.
    const typeChecks = () => {
      // @ts-expect-error: not an event of the catalog
      createEvent('command-registry.command.created', deleted);
      // @ts-expect-error: integration_type is 0 or 1
      createEvent('oauth.application.authorized', { ...authorized, integration_type: 2 });
      // @ts-expect-error: the renamed event needs previous_name
      createEvent('command-registry.command.renamed', deleted);
      // @ts-expect-error: application_id is required
      createEvent('oauth.application.bot_token_reset', {});
    };
    expect(typeof typeChecks).toBe('function');
  });
});

describe('the catalog', () => {
  it('names each event <service>.<type> and knows its names', () => {
    for (const name of Object.keys(EVENT_CATALOG)) expect(name).toMatch(/^[a-z-]+\.[a-z_]+\.[a-z_]+$/);
    expect(isEventName('oauth.application.authorized')).toBe(true);
    expect(isEventName('command-registry.command.created')).toBe(false);
    expect(isEventName('toString')).toBe(false);
  });

  it('accepts what each producer writes and refuses what it never writes', () => {
    const now = '2026-01-01T00:00:00.000000+00:00';
    const entitlement = {
      id: '5001',
      sku_id: '5002',
      application_id: '4000',
      user_id: '3000',
      type: 1,
      deleted: false,
      consumed: false,
      starts_at: now,
      ends_at: null,
      promotion_id: null,
      gift_code_flags: 0,
    };
    const subscription = {
      id: '5003',
      user_id: '3000',
      sku_ids: ['5002'],
      entitlement_ids: ['5001'],
      renewal_sku_ids: null,
      current_period_start: now,
      current_period_end: now,
      status: 0 as const,
      canceled_at: null,
    };
    const autoModRule = { id: '7000', guild_id: '1000', name: 'words', trigger_type: 1, enabled: true };
    const channelAudience = { channel_id: '3000', guild_id: '1000', recipient_ids: [] };
    const valid: { [N in EventName]: EventPayload<N> } = {
      'oauth.application.authorized': authorized,
      'oauth.application.deauthorized': { application_id: '4000', integration_type: 0, guild_id: '2000' },
      'oauth.application.bot_token_reset': { application_id: '4000' },
      'oauth.application.credentials_changed': { application_id: '4000', changed: ['flags', 'owner_id'] },
      'oauth.application.updated': { application_id: '4000' },
      'oauth.user.merged': {
        merge_operation_id: '5000',
        application_id: '4000',
        source_user_id: '3000',
        destination_user_id: '3001',
      },
      'oauth.user.unmerged': { application_id: '4000', full_user_id: '3001', provisional_user_id: '3002' },
      'oauth.user.updated': { user_id: '3000' },
      'oauth.user.deleted': { user_id: '3000' },
      'oauth.user.banned': { user_id: '3000' },
      'oauth.entitlement.created': { application_id: '4000', entitlement },
      'oauth.entitlement.updated': { application_id: '4000', entitlement: { ...entitlement, ends_at: now } },
      'oauth.entitlement.deleted': { application_id: '4000', entitlement: { ...entitlement, deleted: true } },
      'oauth.subscription.created': { application_id: '4000', subscription },
      'oauth.subscription.updated': { application_id: '4000', subscription: { ...subscription, status: 2 } },
      'command-registry.command.deleted': deleted,
      'command-registry.command.renamed': { ...deleted, previous_name: 'ban' },
      'command-registry.scope.changed': { application_id: deleted.application_id, guild_id: null },
      'permissions.application_command_permissions.updated': {
        id: '4000',
        application_id: '4000',
        guild_id: '2000',
        permissions: [{ id: '2000', type: 1, permission: false }],
      },
      'permissions.voice_state.updated': {
        guild_id: '2000',
        channel_id: '2001',
        user_id: '4000',
        session_id: 's',
        deaf: false,
        mute: false,
        self_deaf: true,
        self_mute: false,
        self_video: false,
        suppress: false,
        request_to_speak_timestamp: null,
      },
      'permissions.voice_channel.status_updated': { id: '2001', guild_id: '2000', status: null },
      'permissions.voice_channel.start_time_updated': { id: '2001', guild_id: '2000', voice_start_time: 1 },
      'permissions.member.added': { ...guildMember, bot: false },
      'permissions.member.updated': { ...guildMember, bot: true },
      'permissions.member.removed': { guild_id: '2000', user_id: '3000', bot: false },
      'permissions.role.created': { guild_id: '2000', role: { id: '2001', name: 'mods', permissions: '8' } },
      'permissions.role.updated': { guild_id: '2000', role: { id: '2001', name: 'mods', permissions: '0' } },
      'permissions.role.deleted': { guild_id: '2000', role_id: '2001' },
      'permissions.channel.created': {
        guild_id: '2000',
        channel: { id: '6000', type: 0, guild_id: '2000', name: 'c' },
      },
      'permissions.channel.updated': {
        guild_id: '2000',
        channel: { id: '6000', type: 0, guild_id: '2000', flags: 0 },
      },
      'permissions.channel.deleted': { guild_id: '2000', channel: { id: '6000', type: 4, guild_id: '2000' } },
      'interactions.interaction.created': { ...audience, type: 2, bot_payload: { id: '5000', token: 't' } },
      'interactions.interaction.succeeded': audience,
      'interactions.interaction.failed': { ...audience, reason_code: 2 },
      'interactions.autocomplete.answered': { ...audience, choices: [{ name: 'a', value: 'a' }] },
      'interactions.modal.created': {
        ...audience,
        custom_id: 'form',
        title: 'Tell us',
        components: [
          { type: 18, id: 1, label: 'Name', component: { type: 4, id: 2, custom_id: 'n', style: 1 } },
        ],
        application: { id: '2000' },
      },
      'interactions.message.created': { ...message, message: { id: '6000', type: 20 } },
      'interactions.message.updated': { ...message, message: { id: '6000', type: 20 } },
      'interactions.message.deleted': { ...message, message_id: '6000' },
      'interactions.channel.pins_updated': {
        application_ids: ['2000'],
        channel_id: '3000',
        guild_id: null,
        recipient_ids: ['4000', '2000'],
        last_pin_timestamp: '2026-11-24T13:00:00.000Z',
      },
      'interactions.channel_message.created': { ...channelAudience, message: { id: '6000' } },
      'interactions.channel_message.updated': { ...channelAudience, message: { id: '6000' } },
      'interactions.channel_message.deleted': { ...channelAudience, message_id: '6000' },
      'interactions.channel_message.bulk_deleted': { ...channelAudience, message_ids: ['6000', '6001'] },
      'interactions.reaction.added': {
        ...channelAudience,
        message_id: '6000',
        user_id: '4000',
        emoji: { id: null, name: '👍' },
        message_author_id: '2000',
      },
      'interactions.reaction.removed': {
        ...channelAudience,
        message_id: '6000',
        user_id: '4000',
        emoji: { id: null, name: '👍' },
      },
      'interactions.reaction.removed_all': { ...channelAudience, message_id: '6000' },
      'interactions.reaction.removed_emoji': {
        ...channelAudience,
        message_id: '6000',
        emoji: { id: null, name: '👍' },
      },
      'interactions.typing.started': { ...channelAudience, user_id: '3000', timestamp: 1_800_000_000 },
      'interactions.automod_rule.created': { guild_id: '1000', rule: autoModRule },
      'interactions.automod_rule.updated': { guild_id: '1000', rule: { ...autoModRule, enabled: false } },
      'interactions.automod_rule.deleted': { guild_id: '1000', rule: autoModRule },
      'interactions.automod.action_executed': {
        guild_id: '1000',
        action: { type: 1 },
        rule_id: '7000',
        rule_trigger_type: 1,
        user_id: '3000',
        channel_id: '3000',
        content: 'a bad word',
        matched_keyword: 'bad',
        matched_content: 'bad',
      },
      'lobby.lobby.created': { ...lobby, lobby: { id: '7000' } },
      'lobby.lobby.updated': { ...lobby, lobby: { id: '7000' } },
      'lobby.lobby.deleted': { ...lobby, reason: 'deleted' },
      'lobby.member.changed': { ...lobby, change: 'added', member: { id: '3000' } },
      'lobby.message.created': lobbyMessage,
      'lobby.message.updated': { ...lobbyMessage, override_event_webhooks_url: 'https://example.com/hook' },
      'lobby.merge.completed': {
        merge_operation_id: '5000',
        application_id: '4000',
        source_user_id: '3000',
        destination_user_id: '3001',
      },
    };
    for (const [name, data] of Object.entries(valid))
      expect(EVENT_CATALOG[name as EventName].safeParse(data).success).toBe(true);
    expect(
      EVENT_CATALOG['command-registry.command.deleted'].safeParse({ ...deleted, command_id: '7x' }).success,
    ).toBe(false);
    expect(
      EVENT_CATALOG['permissions.application_command_permissions.updated'].safeParse({
        ...valid['permissions.application_command_permissions.updated'],
        permissions: [{ id: '1', type: 4, permission: true }],
      }).success,
    ).toBe(false);
    expect(
      EVENT_CATALOG['permissions.channel.updated'].safeParse({
        guild_id: '2000',
        channel: { id: 'x', type: 0, guild_id: '2000' },
      }).success,
    ).toBe(false);
    expect(
      EVENT_CATALOG['oauth.subscription.updated'].safeParse({
        application_id: '4000',
        subscription: { ...subscription, status: 3 },
      }).success,
    ).toBe(false);
    expect(
      EVENT_CATALOG['interactions.interaction.failed'].safeParse({ ...audience, reason_code: '2' }).success,
    ).toBe(false);
    expect(EVENT_CATALOG['lobby.lobby.deleted'].safeParse({ ...lobby, reason: 'left' }).success).toBe(false);
    expect(EVENT_CATALOG['permissions.member.added'].safeParse({ ...guildMember, bot: 'no' }).success).toBe(
      false,
    );
    expect(EVENT_CATALOG['permissions.role.deleted'].safeParse({ guild_id: '2000' }).success).toBe(false);
  });
});

const guildMember = {
  guild_id: '2000',
  user_id: '3000',
  member: { user: { id: '3000' }, nick: null, roles: ['2001'], joined_at: '2026-01-01T00:00:00.000Z' },
};

const audience = {
  interaction_id: '5000',
  application_id: '4000',
  user_id: '3000',
  session_id: null,
  nonce: '123',
  guild_id: '2000',
  channel_id: '2001',
};

const message = {
  application_id: '4000',
  channel_id: '2001',
  guild_id: '2000',
  ephemeral_user_id: null,
  recipient_ids: [],
};

const deleted: EventPayload<'command-registry.command.deleted'> = {
  application_id: '4000',
  guild_id: null,
  command_id: '77',
  type: 1,
  name: 'kick',
  version: '78',
};

const lobby = { application_id: '4000', lobby_id: '7000', user_ids: ['3000'] };

const lobbyMessage = {
  ...lobby,
  message: { id: '7001', content: 'hi' },
  override_event_webhooks_url: null,
  linked_channel: { guild_id: '2000', channel_id: '2001' },
};

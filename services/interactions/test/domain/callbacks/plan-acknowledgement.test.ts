import { createEvent } from '@acs/events';
import {
  InteractionAlreadyAcknowledgedError,
  UnknownInteractionError,
  activityInstanceId,
  applicationOf,
  planAcknowledgement,
  refuseAcknowledgement,
  type AcknowledgedInteraction,
  type AcknowledgementContext,
  type ValidCallback,
} from '../../../src/domain/callbacks';
import {
  UnknownMessageError,
  type InteractionMessage,
  type MessageInput,
} from '../../../src/domain/messages';
import { TEST_SIGNER } from '../../support/test-signer';

const APP = '1300000000000000001';
const USER = '1300000000000000010';
const CHANNEL = '1300000000000000200';
const GUILD = '1300000000000000100';
const COMPONENT_MESSAGE = '1300000000000000400';

const interaction = (overrides: Partial<AcknowledgedInteraction> = {}): AcknowledgedInteraction => ({
  id: '1300000000000000500',
  applicationId: APP,
  userId: USER,
  sessionId: 'session-1',
  nonce: 'nonce-1',
  guildId: GUILD,
  channelId: CHANNEL,
  recipientIds: [],
  messageId: null,
  payload: {
    id: '1300000000000000500',
    application_id: APP,
    type: 2,
    channel_id: CHANNEL,
    data: { name: 'ping', type: 1 },
    user: { id: USER },
  },
  ...overrides,
});

const BOT = { id: APP, username: 'Pinger', avatar: null, bot: true };

/** Snowflakes handed out in order, recorded. */
function context(
  overrides: Partial<AcknowledgementContext> = {},
): AcknowledgementContext & { given: string[] } {
  const given: string[] = [];
  let next = 1300000000000001000n;
  return {
    botUser: BOT,
    baseUrl: 'https://cdn.example',
    signer: TEST_SIGNER,
    nextId: () => {
      const id = String(next++);
      given.push(id);
      return id;
    },
    now: new Date('2026-11-28T03:00:00Z'),
    given,
    ...overrides,
  };
}

const messageInput = (overrides: Partial<MessageInput> = {}): MessageInput => ({
  content: 'pong',
  embeds: [],
  tts: false,
  flags: 0,
  components: [],
  newAttachments: [],
  ...overrides,
});

const AUDIENCE = {
  interaction_id: '1300000000000000500',
  application_id: APP,
  user_id: USER,
  session_id: 'session-1',
  nonce: 'nonce-1',
  guild_id: GUILD,
  channel_id: CHANNEL,
};

/** Every planned event passes the catalog's schema (createEvent throws otherwise). */
function expectCatalogued(events: { name: string; data: unknown }[]): void {
  for (const event of events)
    expect(() => createEvent(event.name as never, event.data as never)).not.toThrow();
}

describe('planAcknowledgement', () => {
  it('CHANNEL_MESSAGE_WITH_SOURCE (4): a new original message seen by the channel, after INTERACTION_SUCCESS', () => {
    const ctx = context();
    const plan = planAcknowledgement(interaction(), { type: 4, message: messageInput() }, ctx);
    expect(plan.write.kind).toBe('create');
    const message = plan.made.message as InteractionMessage;
    expect(message).toMatchObject({ id: ctx.given[0], content: 'pong', flags: 0 });
    expect(plan.originalMessageId).toBe(message.id);
    expect(plan.activityInstanceId).toBeNull();
    expect(plan.responseType).toBe(4);
    expect(plan.response).toEqual({
      type: 4,
      data: { content: 'pong', embeds: [], tts: false, flags: 0, components: [] },
    });
    expect(plan.events.map((e) => e.name)).toEqual([
      'interactions.interaction.succeeded',
      'interactions.message.created',
    ]);
    expect(plan.events[0]?.data).toEqual(AUDIENCE);
    expect(plan.events[1]?.data).toEqual({
      application_id: APP,
      channel_id: CHANNEL,
      guild_id: GUILD,
      ephemeral_user_id: null,
      recipient_ids: [],
      message: { ...message },
    });
    expectCatalogued(plan.events);
  });

  it('an ephemeral message (flag 64) is seen by the invoking user only; a DM names its members', () => {
    const plan = planAcknowledgement(
      interaction({ guildId: null, recipientIds: [USER, '1300000000000000011'] }),
      { type: 4, message: messageInput({ flags: 64 }) },
      context(),
    );
    expect(plan.write).toMatchObject({ kind: 'create', ephemeral: true });
    expect(plan.events[1]?.data).toMatchObject({
      guild_id: null,
      ephemeral_user_id: USER,
      recipient_ids: [USER, '1300000000000000011'],
    });
    expectCatalogued(plan.events);
  });

  it('the files of 4 become attachments with ids after the message id; the response keeps their names only', () => {
    const ctx = context();
    const file = { index: 0, blobKey: 'blob-1', filename: 'a.png', contentType: 'image/png', size: 3 };
    const plan = planAcknowledgement(
      interaction(),
      { type: 4, message: messageInput({ newAttachments: [{ file, filename: 'a.png', spoiler: false }] }) },
      ctx,
    );
    if (plan.write.kind !== 'create') throw new Error('expected a new message');
    expect(ctx.given).toHaveLength(2);
    expect(plan.write.message.id).toBe(ctx.given[0]);
    expect(plan.write.attachments.map((a) => a.attachment.id)).toEqual([ctx.given[1]]);
    expect(plan.write.attachments[0]?.blobKey).toBe('blob-1');
    expect(plan.write.message.attachments[0]?.url).toContain('https://cdn.example');
    expect(plan.response.data).toMatchObject({ attachments: [{ filename: 'a.png' }] });
    expect(plan.response.data).not.toHaveProperty('newAttachments');
  });

  it('DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (5): a loading message, ephemeral when asked', () => {
    const plan = planAcknowledgement(interaction(), { type: 5, ephemeral: true }, context());
    expect(plan.write).toMatchObject({ kind: 'create', ephemeral: true, attachments: [] });
    expect(plan.made.message?.flags).toBe(128 | 64);
    expect(plan.response).toEqual({ type: 5, data: { flags: 64 } });
    expect(plan.events[1]).toMatchObject({
      name: 'interactions.message.created',
      data: { ephemeral_user_id: USER },
    });
    const visible = planAcknowledgement(interaction(), { type: 5, ephemeral: false }, context());
    expect(visible.response).toEqual({ type: 5, data: { flags: 0 } });
    expect(visible.events[1]?.data).toMatchObject({ ephemeral_user_id: null });
  });

  it('DEFERRED_UPDATE_MESSAGE (6): no message, the component message is the original, only INTERACTION_SUCCESS', () => {
    const ctx = context();
    const plan = planAcknowledgement(interaction({ messageId: COMPONENT_MESSAGE }), { type: 6 }, ctx);
    expect(plan).toMatchObject({
      responseType: 6,
      response: { type: 6 },
      originalMessageId: COMPONENT_MESSAGE,
      activityInstanceId: null,
      write: { kind: 'none' },
      made: {},
    });
    expect(plan.events.map((e) => e.name)).toEqual(['interactions.interaction.succeeded']);
    expect(ctx.given).toEqual([]);
  });

  it('UPDATE_MESSAGE (7): edits the component message, its update seen by whom the message is for', () => {
    const base = planAcknowledgement(interaction(), { type: 4, message: messageInput() }, context());
    const body = base.made.message as InteractionMessage;
    const plan = planAcknowledgement(
      interaction({ messageId: COMPONENT_MESSAGE }),
      { type: 7, edit: { content: 'edited' } },
      context({ current: { body, ephemeralUserId: USER } }),
    );
    expect(plan.write).toMatchObject({ kind: 'update', message: { id: body.id, content: 'edited' } });
    expect(plan.made.message).toMatchObject({ content: 'edited', edited_timestamp: expect.any(String) });
    expect(plan.originalMessageId).toBe(COMPONENT_MESSAGE);
    expect(plan.response).toEqual({ type: 7, data: { content: 'edited' } });
    expect(plan.events.map((e) => e.name)).toEqual([
      'interactions.interaction.succeeded',
      'interactions.message.updated',
    ]);
    expect(plan.events[1]?.data).toMatchObject({ ephemeral_user_id: USER, message: { content: 'edited' } });
    expectCatalogued(plan.events);
  });

  it('UPDATE_MESSAGE (7) refuses with 404 / 10008 when the component message is gone', () => {
    const update: ValidCallback = { type: 7, edit: { content: 'edited' } };
    expect(() =>
      planAcknowledgement(interaction({ messageId: COMPONENT_MESSAGE }), update, context()),
    ).toThrow(UnknownMessageError);
    expect(() => planAcknowledgement(interaction({ messageId: null }), update, context())).toThrow(
      UnknownMessageError,
    );
  });

  it('APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (8): the choices to the user, after INTERACTION_SUCCESS', () => {
    const choices = [{ name: 'one', value: 1 }];
    const plan = planAcknowledgement(interaction(), { type: 8, choices }, context());
    expect(plan.write.kind).toBe('none');
    expect(plan.response).toEqual({ type: 8, data: { choices } });
    expect(plan.originalMessageId).toBeNull();
    expect(plan.events).toEqual([
      { name: 'interactions.interaction.succeeded', data: AUDIENCE },
      { name: 'interactions.autocomplete.answered', data: { ...AUDIENCE, choices } },
    ]);
    expectCatalogued(plan.events);
  });

  it('MODAL (9): the modal to the user with the application as the client shows it', () => {
    const modal = { custom_id: 'form', title: 'Form', components: [] };
    const plan = planAcknowledgement(interaction(), { type: 9, modal }, context());
    expect(plan.response).toEqual({ type: 9, data: modal });
    expect(plan.events[1]).toEqual({
      name: 'interactions.modal.created',
      data: { ...AUDIENCE, ...modal, application: { id: APP, name: 'Pinger', icon: null, bot_id: APP } },
    });
    expectCatalogued(plan.events);
  });

  it('LAUNCH_ACTIVITY (12): an Activity instance of the interaction, no message', () => {
    const plan = planAcknowledgement(interaction(), { type: 12 }, context());
    const instance = activityInstanceId('1300000000000000500', GUILD, CHANNEL);
    expect(plan.made).toEqual({ activityInstanceId: instance });
    expect(plan.activityInstanceId).toBe(instance);
    expect(plan.response).toEqual({ type: 12 });
    expect(plan.events.map((e) => e.name)).toEqual(['interactions.interaction.succeeded']);
  });
});

describe('applicationOf', () => {
  it('shows only what the bot user has', () => {
    expect(applicationOf(APP, undefined)).toEqual({ id: APP });
    expect(applicationOf(APP, { username: 'Pinger', avatar: 'abc', id: APP })).toEqual({
      id: APP,
      name: 'Pinger',
      icon: 'abc',
      bot_id: APP,
    });
  });
});

describe('refuseAcknowledgement', () => {
  it('400 / 40060 when the interaction has its response, 404 / 10062 when it failed, timed out or is gone', () => {
    expect(() => refuseAcknowledgement('acknowledged')).toThrow(InteractionAlreadyAcknowledgedError);
    expect(() => refuseAcknowledgement('failed')).toThrow(UnknownInteractionError);
    expect(() => refuseAcknowledgement('pending')).toThrow(UnknownInteractionError);
    expect(() => refuseAcknowledgement(undefined)).toThrow(UnknownInteractionError);
  });
});

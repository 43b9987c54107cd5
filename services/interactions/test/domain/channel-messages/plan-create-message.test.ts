import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  planCreateMessage,
  readCreateMessage,
  type ChannelMessage,
  type CreateMessageFacts,
} from '../../../src/domain/channel-messages';
import type { ChannelAccess } from '../../../src/domain/pins';
import { discordErrorOf, formErrorsOf } from '../form-errors-of';

const CHANNEL = '200000000000000000';
const GUILD = '100000000000000000';
const BOT = '300000000000000000';
const USER = '400000000000000000';
const MEMBER_PERMISSIONS =
  P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS | P.ATTACH_FILES | P.READ_MESSAGE_HISTORY;

const access = (permissions: bigint, guildId: string | null = GUILD): ChannelAccess => ({
  guildId,
  isMember: true,
  permissions,
  recipientIds: guildId === null ? [USER, BOT] : [],
});

const stored = (id: string, authorId: string, content = 'earlier'): ChannelMessage => ({
  type: 0,
  content,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  timestamp: '2026-11-24T07:20:00.000000+00:00',
  edited_timestamp: null,
  flags: 0,
  components: [],
  id,
  channel_id: CHANNEL,
  author: { id: authorId, username: 'someone' },
  pinned: false,
  mention_everyone: false,
  tts: false,
});

function facts(body: unknown, overrides: Partial<CreateMessageFacts> = {}): CreateMessageFacts {
  return {
    id: '500000000000000000',
    channelId: CHANNEL,
    caller: { userId: BOT, applicationId: BOT },
    author: { id: BOT, username: 'bot', bot: true },
    access: access(MEMBER_PERMISSIONS),
    request: readCreateMessage(body, [], CHANNEL),
    attachments: [],
    mentionedUsers: [],
    replyTarget: undefined,
    earlier: undefined,
    now: new Date(Date.UTC(2026, 10, 24, 7, 20)),
    ...overrides,
  };
}

describe('readCreateMessage', () => {
  it('reads the channel route’s own fields beside the shared message body', () => {
    const request = readCreateMessage(
      {
        content: 'hi',
        nonce: 42,
        enforce_nonce: true,
        message_reference: { message_id: '1', fail_if_not_exists: false },
      },
      [],
      CHANNEL,
    );
    expect(request).toMatchObject({
      nonce: 42,
      enforceNonce: true,
      reply: { messageId: '1', failIfNotExists: false },
      mentions: { users: 'all', everyone: true, repliedUser: true },
    });
    // enforce_nonce without a nonce enforces nothing.
    expect(readCreateMessage({ content: 'x', enforce_nonce: true }, [], CHANNEL).enforceNonce).toBe(false);
  });

  it('refuses what Discord refuses, every error at once', () => {
    const errors = formErrorsOf(() =>
      readCreateMessage(
        {
          content: 'x'.repeat(2001),
          nonce: 'n'.repeat(26),
          enforce_nonce: 'yes',
          message_reference: { type: 2, channel_id: '9' },
        },
        [],
        CHANNEL,
      ),
    );
    expect(Object.keys(errors).sort()).toEqual(['content', 'enforce_nonce', 'message_reference', 'nonce']);
    expect(errors.message_reference).toMatchObject({
      type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] },
      message_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
      channel_id: { _errors: [{ code: 'MESSAGE_REFERENCE_INVALID_CHANNEL' }] },
    });
    expect(formErrorsOf(() => readCreateMessage({ content: 'x', flags: 64 }, [], CHANNEL))).toMatchObject({
      flags: { _errors: [{ code: 'MESSAGE_FLAGS_INVALID' }] },
    });
    expect(
      formErrorsOf(() => readCreateMessage({ content: 'x', nonce: 2 ** 60 }, [], CHANNEL)),
    ).toMatchObject({
      nonce: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] },
    });
    expect(
      discordErrorOf(() => readCreateMessage({ content: 'x', sticker_ids: ['1'] }, [], CHANNEL)).code,
    ).toBe(50081);
    expect(discordErrorOf(() => readCreateMessage({ nonce: 'n' }, [], CHANNEL)).code).toBe(50006);
  });
});

describe('planCreateMessage', () => {
  it('makes a default message by its author, nonce in the answer only', () => {
    const plan = planCreateMessage(facts({ content: 'hello', nonce: 'abc', tts: true }));
    if (plan.kind !== 'create') throw new Error('expected a new message');
    expect(plan.row).toMatchObject({ authorId: BOT, applicationId: BOT, guildId: GUILD, nonce: 'abc' });
    expect(plan.row.message).toMatchObject({
      type: 0,
      id: '500000000000000000',
      content: 'hello',
      author: { id: BOT },
      timestamp: '2026-11-24T07:20:00+00:00',
      // No SEND_TTS_MESSAGES: sent without it.
      tts: false,
    });
    expect(plan.row.message).not.toHaveProperty('nonce');
    expect(plan.answer.nonce).toBe('abc');
  });

  it('checks VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS and, for replies, READ_MESSAGE_HISTORY', () => {
    const codeOf = (permissions: bigint, body: unknown) =>
      discordErrorOf(() => planCreateMessage(facts(body, { access: access(permissions) })));
    expect(codeOf(0n, { content: 'x' })).toMatchObject({ httpStatus: 403, code: 50001 });
    expect(codeOf(P.VIEW_CHANNEL, { content: 'x' })).toMatchObject({ httpStatus: 403, code: 50013 });
    expect(codeOf(P.VIEW_CHANNEL | P.SEND_MESSAGES, { embeds: [{ title: 't' }] })).toMatchObject({
      code: 50013,
      message: 'Missing Permissions: EMBED_LINKS',
    });
    expect(
      codeOf(P.VIEW_CHANNEL | P.SEND_MESSAGES, { content: 'x', message_reference: { message_id: '1' } }),
    ).toMatchObject({ httpStatus: 403, code: 160002 });
    const notMember = { ...access(MEMBER_PERMISSIONS), isMember: false };
    expect(discordErrorOf(() => planCreateMessage(facts({ content: 'x' }, { access: notMember }))).code).toBe(
      50001,
    );
  });

  it('answers the earlier message of an enforced nonce, after the permission checks', () => {
    const earlier = stored('600000000000000000', BOT);
    const plan = planCreateMessage(facts({ content: 'x', nonce: 'n', enforce_nonce: true }, { earlier }));
    expect(plan).toEqual({ kind: 'existing', message: { ...earlier, nonce: 'n' } });
    expect(
      discordErrorOf(() =>
        planCreateMessage(
          facts({ content: 'x', nonce: 'n', enforce_nonce: true }, { earlier, access: access(0n) }),
        ),
      ).code,
    ).toBe(50001);
  });

  it('replies: type 19 with the target one level deep, pinging its author unless told not to', () => {
    const nested = { ...stored('700000000000000000', USER, 'the question'), referenced_message: { id: '1' } };
    const body = { content: 'the answer', message_reference: { message_id: nested.id } };
    const plan = planCreateMessage(facts(body, { replyTarget: nested }));
    if (plan.kind !== 'create') throw new Error('expected a new message');
    expect(plan.answer).toMatchObject({
      type: 19,
      message_reference: { type: 0, message_id: nested.id, channel_id: CHANNEL, guild_id: GUILD },
      referenced_message: { id: nested.id, content: 'the question' },
      mentions: [{ id: USER }],
    });
    expect(plan.answer.referenced_message).not.toHaveProperty('referenced_message');
    const quiet = planCreateMessage(
      facts({ ...body, allowed_mentions: { parse: [] } }, { replyTarget: nested }),
    );
    expect(quiet.kind === 'create' && quiet.answer.mentions).toEqual([]);
  });

  it('refuses a missing reply target unless fail_if_not_exists is false', () => {
    const body = { content: 'x', message_reference: { message_id: '1' } };
    expect(formErrorsOf(() => planCreateMessage(facts(body)))).toEqual({
      message_reference: {
        _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }],
      },
    });
    const loose = planCreateMessage(
      facts({ ...body, message_reference: { message_id: '1', fail_if_not_exists: false } }),
    );
    expect(loose.kind === 'create' && loose.answer.type).toBe(0);
  });

  it('pings everyone only with MENTION_EVERYONE in a guild and allowed by the policy', () => {
    const everyone = (permissions: bigint, body: Record<string, unknown>, guildId: string | null = GUILD) => {
      const plan = planCreateMessage(facts(body, { access: access(permissions, guildId) }));
      return plan.kind === 'create' && plan.answer.mention_everyone;
    };
    expect(everyone(MEMBER_PERMISSIONS | P.MENTION_EVERYONE, { content: '@everyone hi' })).toBe(true);
    expect(everyone(MEMBER_PERMISSIONS, { content: '@everyone hi' })).toBe(false);
    expect(
      everyone(MEMBER_PERMISSIONS | P.MENTION_EVERYONE, {
        content: '@here',
        allowed_mentions: { parse: ['users'] },
      }),
    ).toBe(false);
    expect(everyone(MEMBER_PERMISSIONS | P.MENTION_EVERYONE, { content: '@everyone' }, null)).toBe(false);
  });
});

describe('forwards', () => {
  const OTHER_CHANNEL = '210000000000000000';
  const source = { ...stored('800000000000000000', USER, 'forward me'), channel_id: OTHER_CHANNEL };
  const body = { message_reference: { type: 1, message_id: source.id, channel_id: OTHER_CHANNEL } };

  it('copies the source into one snapshot, flag HAS_SNAPSHOT, without its author', () => {
    const plan = planCreateMessage(facts(body, { forwardSource: source, applicationFlags: 1 << 18 }));
    if (plan.kind !== 'create') throw new Error('expected a new message');
    expect(plan.answer).toMatchObject({
      type: 0,
      content: '',
      flags: 1 << 14,
      message_reference: { type: 1, message_id: source.id, channel_id: OTHER_CHANNEL, guild_id: GUILD },
      message_snapshots: [{ message: { type: 0, content: 'forward me', stickers: [], sticker_items: [] } }],
    });
    expect(plan.answer.message_snapshots?.[0]?.message).not.toHaveProperty('author');
  });

  it('refuses what the bot cannot read (160014), an unseen source (50001), an unknown one, and content beside it', () => {
    expect(discordErrorOf(() => planCreateMessage(facts(body, { forwardSource: source })))).toMatchObject({
      httpStatus: 403,
      code: 160014,
    });
    // Its own message, one that mentions it, a DM's, or a user forwarding: readable.
    for (const readable of [
      { ...source, author: { id: BOT } },
      { ...source, mentions: [{ id: BOT }] },
    ]) {
      expect(planCreateMessage(facts(body, { forwardSource: readable })).kind).toBe('create');
    }
    expect(
      planCreateMessage(
        facts(body, { forwardSource: source, sourceAccess: access(MEMBER_PERMISSIONS, null) }),
      ).kind,
    ).toBe('create');
    const user = { caller: { userId: USER, applicationId: null }, author: { id: USER } };
    expect(planCreateMessage(facts(body, { forwardSource: source, ...user })).kind).toBe('create');
    expect(
      discordErrorOf(() =>
        planCreateMessage(facts(body, { forwardSource: source, sourceAccess: access(0n) })),
      ).code,
    ).toBe(50001);
    expect(formErrorsOf(() => planCreateMessage(facts(body)))).toMatchObject({
      message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE' }] },
    });
    expect(
      formErrorsOf(() => readCreateMessage({ ...body, content: 'and a comment' }, [], CHANNEL)),
    ).toMatchObject({
      message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_FORWARD_WITH_CONTENT' }] },
    });
    expect(
      formErrorsOf(() => readCreateMessage({ message_reference: { type: 1, message_id: '1' } }, [], CHANNEL)),
    ).toMatchObject({
      message_reference: { channel_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } },
    });
  });
});

import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  assertMayDelete,
  judgeEdit,
  mentionedUserIds,
  mayReadHistory,
  planEditMessage,
  readMentionPolicy,
  readMessagesQuery,
  type ChannelMessage,
} from '../../../src/domain/channel-messages';
import type { ChannelAccess } from '../../../src/domain/pins';
import { discordErrorOf, formErrorsOf } from '../form-errors-of';

const AUTHOR = '400000000000000000';
const OTHER = '410000000000000000';
const message: ChannelMessage = {
  type: 0,
  content: 'hello',
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  timestamp: '2026-11-24T07:20:00.000000+00:00',
  edited_timestamp: null,
  flags: 0,
  components: [],
  id: '500000000000000000',
  channel_id: '200000000000000000',
  author: { id: AUTHOR },
  pinned: false,
  mention_everyone: false,
  tts: false,
};
const inGuild = (permissions: bigint): ChannelAccess => ({
  guildId: '100000000000000000',
  isMember: true,
  permissions,
  recipientIds: [],
});
const inDm: ChannelAccess = {
  guildId: null,
  isMember: true,
  permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY,
  recipientIds: [AUTHOR, OTHER],
};
const author = { userId: AUTHOR, applicationId: null };
const other = { userId: OTHER, applicationId: null };
const viewer = P.VIEW_CHANNEL | P.SEND_MESSAGES;

describe('edits', () => {
  it('lets the author edit anything, and another only the flags with MANAGE_MESSAGES', () => {
    expect(judgeEdit(message, author, inGuild(viewer), { content: 'x' })).toBe('author');
    expect(
      discordErrorOf(() => judgeEdit(message, other, inGuild(viewer | P.MANAGE_MESSAGES), { content: 'x' })),
    ).toMatchObject({ httpStatus: 403, code: 50005 });
    expect(judgeEdit(message, other, inGuild(viewer | P.MANAGE_MESSAGES), { flags: 4 })).toBe('moderator');
    expect(discordErrorOf(() => judgeEdit(message, other, inGuild(viewer), { flags: 4 })).code).toBe(50013);
    expect(discordErrorOf(() => judgeEdit(message, other, inDm, { flags: 4 })).code).toBe(50003);
    expect(discordErrorOf(() => judgeEdit(message, author, inGuild(0n), { content: 'x' })).code).toBe(50001);
  });

  it('rebuilds the mentions when the content changes, and marks the message edited', () => {
    const policy = readMentionPolicy(undefined);
    const now = new Date(Date.UTC(2026, 10, 25));
    const context = {
      mentionedUsers: [{ id: OTHER }],
      policy,
      access: inGuild(viewer | P.MENTION_EVERYONE),
      now,
    };
    const edited = planEditMessage(message, { content: `<@${OTHER}> @everyone` }, context);
    expect(edited).toMatchObject({
      content: `<@${OTHER}> @everyone`,
      mentions: [{ id: OTHER }],
      mention_everyone: true,
      edited_timestamp: '2026-11-25T00:00:00+00:00',
    });
    const suppressed = planEditMessage({ ...message, mentions: [{ id: OTHER }] }, { flags: 4 }, context);
    expect(suppressed).toMatchObject({ flags: 4, mentions: [{ id: OTHER }], content: 'hello' });
    expect(discordErrorOf(() => planEditMessage(message, { content: '' }, context)).code).toBe(50006);
  });
});

describe('deletes and reads', () => {
  it('lets the author delete; another needs MANAGE_MESSAGES, and no one deletes another’s DM message', () => {
    expect(() => assertMayDelete(message, author, inGuild(viewer))).not.toThrow();
    expect(() => assertMayDelete(message, other, inGuild(viewer | P.MANAGE_MESSAGES))).not.toThrow();
    expect(discordErrorOf(() => assertMayDelete(message, other, inGuild(viewer))).code).toBe(50013);
    expect(discordErrorOf(() => assertMayDelete(message, other, inDm)).code).toBe(50003);
    expect(discordErrorOf(() => assertMayDelete(message, author, inGuild(P.SEND_MESSAGES))).code).toBe(50001);
  });

  it('reads history only with READ_MESSAGE_HISTORY, and nothing without VIEW_CHANNEL', () => {
    expect(mayReadHistory(inGuild(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY))).toBe(true);
    expect(mayReadHistory(inGuild(P.VIEW_CHANNEL))).toBe(false);
    expect(discordErrorOf(() => mayReadHistory(inGuild(P.READ_MESSAGE_HISTORY))).code).toBe(50001);
  });
});

describe('readMessagesQuery', () => {
  const none = { around: '', before: '', after: '', limit: 0 };
  it('defaults to the latest 50 and takes one anchor', () => {
    expect(readMessagesQuery(none)).toEqual({ anchor: 'latest', limit: 50 });
    expect(readMessagesQuery({ ...none, before: '5', limit: 100 })).toEqual({
      anchor: 'before',
      id: '5',
      limit: 100,
    });
    expect(readMessagesQuery({ ...none, around: '5', limit: 1 })).toEqual({
      anchor: 'around',
      id: '5',
      limit: 1,
    });
  });

  it('refuses a limit past 100 and two anchors at the second', () => {
    expect(formErrorsOf(() => readMessagesQuery({ ...none, limit: 101 }))).toMatchObject({
      limit: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] },
    });
    expect(formErrorsOf(() => readMessagesQuery({ ...none, before: '1', after: '2' }))).toMatchObject({
      after: { _errors: [{ code: 'MESSAGE_QUERY_EXCLUSIVE' }] },
    });
  });
});

describe('mentions', () => {
  it('finds each allowed user once, in order, skipping ids no one can have', () => {
    const content = `<@${OTHER}> <@!${AUTHOR}> <@${OTHER}> <@99999999999999999999>`;
    expect(mentionedUserIds(content, readMentionPolicy(undefined))).toEqual([OTHER, AUTHOR]);
    expect(mentionedUserIds(content, readMentionPolicy({ users: [AUTHOR] }))).toEqual([AUTHOR]);
    expect(mentionedUserIds(content, readMentionPolicy({ parse: [] }))).toEqual([]);
    expect(readMentionPolicy({ parse: ['everyone'], replied_user: true })).toMatchObject({
      everyone: true,
      repliedUser: true,
    });
  });
});

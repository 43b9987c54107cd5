import { PERMISSION_FLAGS as P } from '@acs/validation';
import {
  assertMayManageReactions,
  assertMayReact,
  isNewReaction,
  reactionsSeenBy,
  readReactionEmoji,
  readReactionsQuery,
  withReactionAdded,
  withReactionRemoved,
} from '../../../src/domain/reactions';
import type { ChannelAccess } from '../../../src/domain/pins';
import { discordErrorOf, formErrorsOf } from '../form-errors-of';

const thumbs = { id: null, name: '👍' };
const heart = { id: null, name: '❤️' };

describe('readReactionEmoji', () => {
  it('takes one Unicode emoji, sequences and presentation forms included', () => {
    for (const emoji of ['👍', '❤️', '❤', '👍🏽', '🇫🇷', '1️⃣', '👩‍💻', '🏳️‍🌈']) {
      expect(readReactionEmoji(emoji)).toEqual({ id: null, name: emoji });
    }
  });

  it('answers 10014 for custom emojis ACS does not have, text, two emojis, and oversized input', () => {
    for (const value of [
      '',
      'a',
      'thumbsup',
      ':thumbsup:',
      'blob:123456789012345678',
      'a:blob:1',
      '👍👍',
      '👍 ',
      'x'.repeat(1_000_000),
      '\u0000',
    ]) {
      expect(discordErrorOf(() => readReactionEmoji(value))).toMatchObject({ httpStatus: 400, code: 10014 });
    }
  });
});

describe('reaction counts', () => {
  it('counts each emoji in the order first used, drops emptied ones, and stops at 20 emojis', () => {
    let reactions = withReactionAdded([], thumbs);
    reactions = withReactionAdded(reactions, heart);
    reactions = withReactionAdded(reactions, thumbs);
    expect(reactions.map((r) => [r.emoji.name, r.count, r.count_details.normal])).toEqual([
      ['👍', 2, 2],
      ['❤️', 1, 1],
    ]);
    expect(isNewReaction(reactions, heart)).toBe(false);
    expect(withReactionRemoved(reactions, heart)).toHaveLength(1);
    expect(withReactionRemoved(reactions, thumbs, 2).map((r) => r.emoji.name)).toEqual(['❤️']);
    expect(reactionsSeenBy(reactions, new Set(['❤️'])).map((r) => r.me)).toEqual([false, true]);
    const twenty = Array.from({ length: 20 }, (_, i) => ({
      ...reactions[0]!,
      emoji: { id: null, name: `e${i}` },
    }));
    expect(discordErrorOf(() => withReactionAdded(twenty, heart))).toMatchObject({
      httpStatus: 400,
      code: 30010,
    });
    expect(withReactionAdded(twenty, { id: null, name: 'e3' })[3]?.count).toBe(3);
  });
});

describe('reaction rules', () => {
  const access = (permissions: bigint, guildId: string | null = '1'): ChannelAccess => ({
    guildId,
    isMember: true,
    permissions,
    recipientIds: [],
  });
  it('needs READ_MESSAGE_HISTORY, and ADD_REACTIONS only for a new emoji', () => {
    const reader = P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;
    expect(() => assertMayReact(access(reader), false)).not.toThrow();
    expect(discordErrorOf(() => assertMayReact(access(reader), true))).toMatchObject({
      code: 50013,
      message: 'Missing Permissions: ADD_REACTIONS',
    });
    expect(discordErrorOf(() => assertMayReact(access(P.VIEW_CHANNEL | P.ADD_REACTIONS), false)).code).toBe(
      50013,
    );
    expect(discordErrorOf(() => assertMayReact(access(P.ADD_REACTIONS), true)).code).toBe(50001);
    expect(discordErrorOf(() => assertMayManageReactions(access(reader))).code).toBe(50013);
    expect(discordErrorOf(() => assertMayManageReactions(access(reader, null))).code).toBe(50003);
  });

  it('reads the query of Get Reactions', () => {
    expect(readReactionsQuery({ type: -1, after: '', limit: 0 })).toEqual({ type: 0, after: '', limit: 25 });
    expect(readReactionsQuery({ type: 1, after: '5', limit: 100 })).toEqual({
      type: 1,
      after: '5',
      limit: 100,
    });
    expect(formErrorsOf(() => readReactionsQuery({ type: 2, after: '', limit: 0 }))).toMatchObject({
      type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] },
    });
    expect(formErrorsOf(() => readReactionsQuery({ type: 0, after: '', limit: 101 }))).toMatchObject({
      limit: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] },
    });
  });
});

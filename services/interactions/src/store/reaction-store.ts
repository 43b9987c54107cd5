import type { Pool, PoolClient } from 'pg';
import { createEvent, type OutboxRow } from '@acs/events';
import { assertMayView, authorIdOf, type ChannelMessage } from '../domain/channel-messages';
import { UnknownMessageError } from '../domain/messages';
import {
  assertMayManageReactions,
  assertMayReact,
  assertMayReadReactions,
  isNewReaction,
  reactionsSeenBy,
  withReactionAdded,
  withReactionRemoved,
  type ReactionEmoji,
  type ReactionsQuery,
} from '../domain/reactions';
import { audienceOf, type ChannelPlace } from './channel-message-store';
import { withTransaction } from '@acs/service-kit';
import { writeEvents } from './write-events';

/** A message the reaction routes may act on: in the channel, not deleted, not ephemeral. */
const VISIBLE = 'channel_id = $1 AND deleted_at IS NULL AND ephemeral_user_id IS NULL';

/**
 * Reactions to the channels' messages: a row per user, emoji and message, and the counts in
 * the message's body (`reactions`, `me` false as stored). Each change locks the message,
 * asks the domain's rules, writes the rows, the counts and its event in one transaction;
 * one that changes nothing (a second reaction of the same user, the removal of none)
 * announces nothing.
 */
export class ReactionStore {
  constructor(private readonly pool: Pool) {}

  /** The caller reacts with `emoji` (assertMayReact: ADD_REACTIONS for an emoji no one used yet). */
  async add(place: ChannelPlace, messageId: string, emoji: ReactionEmoji): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      assertMayView(place.access);
      const message = await lockMessage(db, place.channelId, messageId);
      const reactions = message.reactions ?? [];
      assertMayReact(place.access, isNewReaction(reactions, emoji));
      const added = await db.query(
        `INSERT INTO reaction (message_id, emoji, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [messageId, emoji.name, place.caller.userId],
      );
      if ((added.rowCount ?? 0) === 0) return;
      await saveReactions(db, message, withReactionAdded(reactions, emoji));
      const author = authorIdOf(message);
      await writeEvents(db, [
        createEvent('interactions.reaction.added', {
          ...audienceOf(place),
          message_id: messageId,
          user_id: place.caller.userId,
          emoji,
          message_author_id: author === '' ? null : author,
        }),
      ]);
    });
  }

  /**
   * Removes `userId`'s reaction of `emoji`: the caller's own (with VIEW_CHANNEL), or another's
   * with MANAGE_MESSAGES (assertMayManageReactions).
   */
  async remove(place: ChannelPlace, messageId: string, emoji: ReactionEmoji, userId: string): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      // One's own reaction takes VIEW_CHANNEL only ([Inf]); another's, MANAGE_MESSAGES.
      if (userId === place.caller.userId) assertMayView(place.access);
      else assertMayManageReactions(place.access);
      const message = await lockMessage(db, place.channelId, messageId);
      const removed = await db.query(
        'DELETE FROM reaction WHERE message_id = $1 AND emoji = $2 AND user_id = $3',
        [messageId, emoji.name, userId],
      );
      if ((removed.rowCount ?? 0) === 0) return;
      await saveReactions(db, message, withReactionRemoved(message.reactions ?? [], emoji));
      await writeEvents(db, [
        createEvent('interactions.reaction.removed', {
          ...audienceOf(place),
          message_id: messageId,
          user_id: userId,
          emoji,
        }),
      ]);
    });
  }

  /** Removes every reaction of the message, or every one of `emoji` (MANAGE_MESSAGES). */
  async removeAll(place: ChannelPlace, messageId: string, emoji?: ReactionEmoji): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      assertMayManageReactions(place.access);
      const message = await lockMessage(db, place.channelId, messageId);
      const removed = emoji
        ? await db.query('DELETE FROM reaction WHERE message_id = $1 AND emoji = $2', [messageId, emoji.name])
        : await db.query('DELETE FROM reaction WHERE message_id = $1', [messageId]);
      const count = removed.rowCount ?? 0;
      if (count === 0) return;
      const left = emoji ? withReactionRemoved(message.reactions ?? [], emoji, count) : [];
      await saveReactions(db, message, left);
      const event: OutboxRow = emoji
        ? createEvent('interactions.reaction.removed_emoji', {
            ...audienceOf(place),
            message_id: messageId,
            emoji,
          })
        : createEvent('interactions.reaction.removed_all', { ...audienceOf(place), message_id: messageId });
      await writeEvents(db, [event]);
    });
  }

  /** Get Reactions: the ids of the users who reacted with `emoji`, by id after `query.after` (no burst reactions). */
  async users(
    place: ChannelPlace,
    messageId: string,
    emoji: ReactionEmoji,
    query: ReactionsQuery,
  ): Promise<string[]> {
    assertMayReadReactions(place.access);
    const { rows: found } = await this.pool.query(`SELECT 1 FROM message WHERE ${VISIBLE} AND id = $2`, [
      place.channelId,
      messageId,
    ]);
    if (found.length === 0) throw new UnknownMessageError();
    if (query.type === 1) return [];
    const { rows } = await this.pool.query<{ user_id: string }>(
      `SELECT user_id::text FROM reaction
        WHERE message_id = $1 AND emoji = $2 AND user_id > $3
        ORDER BY user_id LIMIT $4`,
      [messageId, emoji.name, query.after === '' ? '0' : query.after, query.limit],
    );
    return rows.map((row) => row.user_id);
  }

  /** The messages as `readerId` sees them: `me` set on the reactions that are theirs. */
  async seenBy<M extends Pick<ChannelMessage, 'id' | 'reactions'>>(
    readerId: string,
    messages: M[],
  ): Promise<M[]> {
    const reacted = messages.filter((message) => (message.reactions ?? []).length > 0);
    if (reacted.length === 0) return messages;
    const { rows } = await this.pool.query<{ message_id: string; emoji: string }>(
      'SELECT message_id::text, emoji FROM reaction WHERE user_id = $1 AND message_id = ANY($2::bigint[])',
      [readerId, reacted.map((message) => message.id)],
    );
    const mine = new Map<string, Set<string>>();
    for (const row of rows) mine.set(row.message_id, (mine.get(row.message_id) ?? new Set()).add(row.emoji));
    return messages.map((message) =>
      message.reactions && message.reactions.length > 0
        ? { ...message, reactions: reactionsSeenBy(message.reactions, mine.get(message.id) ?? new Set()) }
        : message,
    );
  }
}

async function lockMessage(db: PoolClient, channelId: string, messageId: string): Promise<ChannelMessage> {
  const { rows } = await db.query<{ body: ChannelMessage }>(
    `SELECT body FROM message WHERE ${VISIBLE} AND id = $2 FOR UPDATE`,
    [channelId, messageId],
  );
  if (!rows[0]) throw new UnknownMessageError();
  return rows[0].body;
}

// The counts in the body: `reactions` absent when none is left, as the API answers a message without any.
async function saveReactions(
  db: PoolClient,
  message: ChannelMessage,
  reactions: ChannelMessage['reactions'],
) {
  const body: ChannelMessage = { ...message };
  if (reactions && reactions.length > 0) body.reactions = reactions;
  else delete body.reactions;
  await db.query('UPDATE message SET body = $2 WHERE id = $1', [message.id, JSON.stringify(body)]);
}

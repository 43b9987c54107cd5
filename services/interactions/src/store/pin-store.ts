import type { Pool } from 'pg';
import { createEvent } from '@acs/events';
import { withTransaction } from '@acs/service-kit';
import { formatTimestamp, UnknownMessageError, type InteractionMessage } from '../domain/messages';
import { MAX_PINS_PER_CHANNEL } from '../domain/messages/message-limits';
import { MaxPinsError, type PinnedMessage, type PinsQuery } from '../domain/pins';
import { writeEvents } from './write-events';

/** A pin or unpin: the message, who asks (their bot is told too) and the DM's recipients. */
export interface PinChange {
  channelId: string;
  messageId: string;
  pinned: boolean;
  /** The caller's application when a bot pins; null for a user. */
  actorApplicationId: string | null;
  /** A DM's recipients (the event's audience there); empty in a guild. */
  recipientIds: string[];
}

/** A message of the channel (parameter `channel`) visible to all of it: not deleted, not ephemeral. */
function inChannel(channel: string): string {
  return `channel_id = ${channel} AND deleted_at IS NULL AND ephemeral_user_id IS NULL`;
}

/**
 * The pins of the channels whose messages this service stores (interaction responses,
 * follow-ups, linked lobbies' messages). A pin sets `pinned_at` and the body's `pinned`;
 * each change writes CHANNEL_PINS_UPDATE's event in its transaction.
 */
export class PinStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Pins or unpins a message of the channel: 404 / 10008 for a message that is not there
   * (unknown, deleted, ephemeral, another channel's); 400 / 30003 beyond the channel's
   * 250 pins. Pinning a pinned message, or unpinning one that is not, changes nothing and
   * announces nothing. Pins of one channel are counted under a lock of that channel.
   */
  async setPinned(change: PinChange): Promise<void> {
    await withTransaction(this.pool, async (db) => {
      if (change.pinned) {
        await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`pins:${change.channelId}`]);
      }
      const { rows } = await db.query<{
        application_id: string | null;
        guild_id: string | null;
        pinned: boolean;
      }>(
        `SELECT application_id::text, guild_id::text, pinned_at IS NOT NULL AS pinned
           FROM message WHERE id = $1 AND ${inChannel('$2')} FOR UPDATE`,
        [change.messageId, change.channelId],
      );
      const row = rows[0];
      if (!row) throw new UnknownMessageError();
      if (row.pinned === change.pinned) return;
      if (change.pinned) {
        const count = await db.query<{ pins: number }>(
          `SELECT count(*)::int AS pins FROM message WHERE pinned_at IS NOT NULL AND ${inChannel('$1')}`,
          [change.channelId],
        );
        if ((count.rows[0]?.pins ?? 0) >= MAX_PINS_PER_CHANNEL) throw new MaxPinsError();
      }
      await db.query(
        `UPDATE message SET pinned_at = CASE WHEN $2 THEN now() END,
                body = jsonb_set(body, '{pinned}', to_jsonb($2::boolean))
          WHERE id = $1`,
        [change.messageId, change.pinned],
      );
      const last = await db.query<{ last_pin: Date | null }>(
        `SELECT max(pinned_at) AS last_pin FROM message WHERE pinned_at IS NOT NULL AND ${inChannel('$1')}`,
        [change.channelId],
      );
      const lastPin = last.rows[0]?.last_pin ?? null;
      // A user's message (POST /channels/{id}/messages by a session) belongs to no application.
      const applicationIds = [
        ...new Set(
          [row.application_id, change.actorApplicationId ?? null].filter((id): id is string => id !== null),
        ),
      ];
      await writeEvents(db, [
        createEvent('interactions.channel.pins_updated', {
          application_ids: applicationIds,
          channel_id: change.channelId,
          guild_id: row.guild_id,
          recipient_ids: row.guild_id === null ? change.recipientIds : [],
          last_pin_timestamp: lastPin === null ? null : formatTimestamp(lastPin),
        }),
      ]);
    });
  }

  /** A page of the channel's pins, newest first, and whether older ones remain. */
  async listPins(channelId: string, query: PinsQuery): Promise<{ pins: PinnedMessage[]; hasMore: boolean }> {
    const { rows } = await this.pool.query<{ pinned_at: Date; body: InteractionMessage }>(
      `SELECT pinned_at, body FROM message
        WHERE ${inChannel('$1')} AND pinned_at IS NOT NULL AND ($2::timestamptz IS NULL OR pinned_at < $2)
        ORDER BY pinned_at DESC, id DESC
        LIMIT $3`,
      [channelId, query.before ?? null, query.limit + 1],
    );
    return {
      pins: rows.slice(0, query.limit).map((row) => ({ pinnedAt: row.pinned_at, message: row.body })),
      hasMore: rows.length > query.limit,
    };
  }
}

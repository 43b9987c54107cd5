import type { Pool } from 'pg';
import { createEvent } from '@acs/events';
import type { SnowflakeGenerator } from '@acs/snowflake';
import { StatementParameters } from '@acs/service-kit';
import { linkedLobbyMessage, type LinkedChannel, type LobbyMessage } from '../domain/messages';
import { insertEventsSql, notifySql } from './write-events';

/**
 * The channel copies of linked lobbies' messages: one message row per lobby message (a
 * redelivered event finds its copy and posts nothing), written with its MESSAGE_CREATE in
 * one statement.
 */
export class LinkedMessageStore {
  constructor(
    private readonly pool: Pool,
    private readonly ids: SnowflakeGenerator,
  ) {}

  /** Posts `lobbyMessage` to `channel`; false when it was posted already. */
  async post(applicationId: string, lobbyMessage: LobbyMessage, channel: LinkedChannel): Promise<boolean> {
    const createdAt = new Date();
    const message = linkedLobbyMessage(this.ids.next(), lobbyMessage, channel, createdAt);
    const event = createEvent('interactions.message.created', {
      application_id: applicationId,
      channel_id: channel.channelId,
      guild_id: channel.guildId,
      ephemeral_user_id: null,
      recipient_ids: [],
      message,
    });
    const params = new StatementParameters();
    const insert = `INSERT INTO message (id, application_id, channel_id, guild_id, is_original, flags, body,
                                         created_at, lobby_message_id)
      VALUES (${params.add(message.id)}::bigint, ${params.add(applicationId)}::bigint,
              ${params.add(channel.channelId)}::bigint, ${params.add(channel.guildId)}::bigint, false, 0,
              ${params.add(JSON.stringify(message))}::jsonb, ${params.add(createdAt)}::timestamptz,
              ${params.add(lobbyMessage.id)}::bigint)
      ON CONFLICT (lobby_message_id) DO NOTHING RETURNING 1`;
    const result = await this.pool.query(
      `WITH posted AS (${insert}), events AS (${insertEventsSql(params, [event], 'posted')})
       ${notifySql(params, [], 'posted')}`,
      params.values,
    );
    return (result.rowCount ?? 0) > 0;
  }
}

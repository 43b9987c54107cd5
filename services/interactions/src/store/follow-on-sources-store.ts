import type { Pool } from 'pg';
import type { JsonObject } from '@acs/validation';
import type { ComponentSource, OpenModal, OriginInteraction } from '../domain/follow-ons';
import type { Modal } from '../domain/messages/components';

/** The columns of the interaction a follow-on inherits from (an `i` alias). */
const ORIGIN_COLUMNS = `i.id::text AS origin_id, i.command_id::text, i.command_name, i.command_type,
  i.user_install_only, i.payload`;

interface OriginRow {
  origin_id: string;
  command_id: string | null;
  command_name: string;
  command_type: number;
  user_install_only: boolean;
  payload: JsonObject;
}

function originOf(row: OriginRow): OriginInteraction {
  return {
    id: row.origin_id,
    commandId: row.command_id,
    commandName: row.command_name,
    commandType: row.command_type,
    userInstallOnly: row.user_install_only,
    payload: row.payload,
  };
}

/** What component interactions and modal submits are judged against: the stored message, the open modal. */
export class FollowOnSourcesStore {
  constructor(private readonly pool: Pool) {}

  /** A message not deleted, with the interaction that produced it; undefined when there is none. */
  async findComponentSource(messageId: string): Promise<ComponentSource | undefined> {
    const { rows } = await this.pool.query<
      OriginRow & {
        channel_id: string;
        guild_id: string | null;
        application_id: string;
        ephemeral_user_id: string | null;
        body: JsonObject;
      }
    >({
      name: 'find-component-source',
      text: `SELECT m.channel_id::text, m.guild_id::text, m.application_id::text, m.ephemeral_user_id::text, m.body, ${ORIGIN_COLUMNS}
               FROM message m JOIN interaction i ON i.id = m.interaction_id
              WHERE m.id = $1 AND m.deleted_at IS NULL`,
      values: [messageId],
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      messageId,
      channelId: row.channel_id,
      guildId: row.guild_id,
      applicationId: row.application_id,
      ephemeralUserId: row.ephemeral_user_id,
      message: row.body,
      origin: originOf(row),
    };
  }

  /** The modal interaction `interactionId` opened (callback 9); undefined when it opened none. */
  async findOpenModal(interactionId: string): Promise<OpenModal | undefined> {
    const { rows } = await this.pool.query<
      OriginRow & {
        user_id: string;
        application_id: string;
        channel_id: string;
        guild_id: string | null;
        response: { data: Modal };
        submitted: boolean;
        expired: boolean;
        message_id: string | null;
      }
    >({
      name: 'find-open-modal',
      text: `SELECT i.user_id::text, i.application_id::text, i.channel_id::text, i.guild_id::text, i.response,
                    i.modal_submitted_at IS NOT NULL AS submitted, i.expires_at <= now() AS expired,
                    i.message_id::text, ${ORIGIN_COLUMNS}
               FROM interaction i WHERE i.id = $1 AND i.response_type = 9`,
      values: [interactionId],
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      userId: row.user_id,
      applicationId: row.application_id,
      channelId: row.channel_id,
      guildId: row.guild_id,
      modal: row.response.data,
      submitted: row.submitted,
      expired: row.expired,
      messageId: row.message_id,
      origin: originOf(row),
    };
  }
}

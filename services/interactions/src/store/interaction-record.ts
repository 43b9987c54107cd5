import type { JsonObject } from '@acs/validation';

/** An interaction row as the response and message paths read it. */
export interface InteractionRecord {
  id: string;
  applicationId: string;
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 APPLICATION_COMMAND_AUTOCOMPLETE, 5 MODAL_SUBMIT. */
  type: number;
  userId: string;
  /** Null in a DM or group DM. */
  guildId: string | null;
  channelId: string;
  sessionId: string | null;
  nonce: string | null;
  tokenHash: Buffer;
  state: 'pending' | 'acknowledged' | 'failed';
  responseType: number | null;
  userInstallOnly: boolean;
  /** In a DM or group DM, every member's user id; empty in a guild. */
  recipientIds: string[];
  /** The interaction object the app received, without its token. */
  payload: JsonObject;
  originalMessageId: string | null;
  followupCount: number;
  activityInstanceId: string | null;
  /** Components (and modals opened from one): the message the component is on. */
  messageId: string | null;
  /** The deadline of the initial response has passed (by the database's clock). */
  pastDeadline: boolean;
  /** The token's lifetime is over (by the database's clock). */
  expired: boolean;
}

/** The columns that make an InteractionRecord, ids as text, deadlines judged by the database's clock. */
export const INTERACTION_RECORD_COLUMNS = `id::text, application_id::text, type, user_id::text,
  guild_id::text, channel_id::text, session_id, nonce, token_hash, state, response_type,
  user_install_only, COALESCE(recipient_ids, '{}')::text[] AS recipient_ids, payload,
  original_message_id::text, followup_count, activity_instance_id, message_id::text,
  deadline_at <= now() AS past_deadline, expires_at <= now() AS expired`;

/** A row selected with INTERACTION_RECORD_COLUMNS. */
export interface InteractionRow {
  id: string;
  application_id: string;
  type: number;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  session_id: string | null;
  nonce: string | null;
  token_hash: Buffer;
  state: InteractionRecord['state'];
  response_type: number | null;
  user_install_only: boolean;
  recipient_ids: string[];
  payload: JsonObject;
  original_message_id: string | null;
  followup_count: number;
  activity_instance_id: string | null;
  message_id: string | null;
  past_deadline: boolean;
  expired: boolean;
}

/** The record of a row selected with INTERACTION_RECORD_COLUMNS. */
export function toInteractionRecord(row: InteractionRow): InteractionRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    type: row.type,
    userId: row.user_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    sessionId: row.session_id,
    nonce: row.nonce,
    tokenHash: row.token_hash,
    state: row.state,
    responseType: row.response_type,
    userInstallOnly: row.user_install_only,
    recipientIds: row.recipient_ids,
    payload: row.payload,
    originalMessageId: row.original_message_id,
    followupCount: row.followup_count,
    activityInstanceId: row.activity_instance_id,
    messageId: row.message_id,
    pastDeadline: row.past_deadline,
    expired: row.expired,
  };
}

import type { LobbyRecord, MemberRecord } from '../domain/lobby-objects';
import type { Metadata } from '../domain/read-lobby-bodies';

/** The columns of a lobby row as the store selects them. */
export const LOBBY_COLUMNS = `id::text, application_id::text, metadata, flags, idle_timeout_seconds,
  override_event_webhooks_url, linked_channel`;

/** The columns of a member row as the store selects them. */
export const MEMBER_COLUMNS = `user_id::text, metadata, flags, additional_name`;

export interface LobbyRow {
  id: string;
  application_id: string;
  metadata: Metadata;
  flags: number;
  idle_timeout_seconds: number;
  override_event_webhooks_url: string | null;
  linked_channel: Record<string, unknown> | null;
}

export interface MemberRow {
  user_id: string;
  metadata: Metadata;
  flags: number;
  additional_name: string | null;
}

export function memberOf(row: MemberRow): MemberRecord {
  return {
    userId: row.user_id,
    metadata: row.metadata,
    flags: row.flags,
    additionalName: row.additional_name,
  };
}

export function lobbyOf(row: LobbyRow, members: MemberRow[]): LobbyRecord {
  return {
    id: row.id,
    applicationId: row.application_id,
    metadata: row.metadata,
    flags: row.flags,
    idleTimeoutSeconds: row.idle_timeout_seconds,
    overrideEventWebhooksUrl: row.override_event_webhooks_url,
    linkedChannel: row.linked_channel,
    members: members.map(memberOf),
  };
}

import { LOBBY_MESSAGE_FLAGS } from './lobby-limits';
import type { Metadata } from './read-lobby-bodies';

/** A JSON object as the API renders it. */
export type JsonRecord = Record<string, unknown>;

/** A lobby member as stored. */
export interface MemberRecord {
  userId: string;
  metadata: Metadata;
  flags: number;
  additionalName: string | null;
}

/** A lobby as stored, with its members. */
export interface LobbyRecord {
  id: string;
  applicationId: string;
  metadata: Metadata;
  flags: number;
  idleTimeoutSeconds: number;
  overrideEventWebhooksUrl: string | null;
  /** The linked guild channel's object, when linked. */
  linkedChannel: JsonRecord | null;
  members: MemberRecord[];
}

/** The lobby member object (REST: `metadata` always, null allowed, and `flags`; B1). */
export function renderMember(member: MemberRecord): JsonRecord {
  const rendered: JsonRecord = { id: member.userId, metadata: member.metadata, flags: member.flags };
  if (member.additionalName !== null) rendered.additional_name = member.additionalName;
  return rendered;
}

/** The lobby object (FACTS §13; OAS LobbyResponse). */
export function renderLobby(lobby: LobbyRecord): JsonRecord {
  const rendered: JsonRecord = {
    id: lobby.id,
    application_id: lobby.applicationId,
    metadata: lobby.metadata,
    members: lobby.members.map(renderMember),
    flags: lobby.flags,
  };
  if (lobby.overrideEventWebhooksUrl !== null) {
    rendered.override_event_webhooks_url = lobby.overrideEventWebhooksUrl;
  }
  if (lobby.linkedChannel !== null) rendered.linked_channel = lobby.linkedChannel;
  return rendered;
}

/**
 * The lobby as user gateway events carry it (UD: LOBBY_CREATE / LOBBY_UPDATE): its members
 * with `connected` (ACS has no lobby voice: false) and no voice states.
 */
export function renderGatewayLobby(lobby: LobbyRecord): JsonRecord {
  const rendered = renderLobby(lobby);
  rendered.members = lobby.members.map((m) => ({ ...renderMember(m), connected: false }));
  rendered.voice_states = [];
  return rendered;
}

/** The member as LOBBY_MEMBER_* events carry it. */
export function memberEvent(lobby: { id: string; applicationId: string }, member: MemberRecord): JsonRecord {
  return { member: renderMember(member), lobby_id: lobby.id, application_id: lobby.applicationId };
}

/** What a new lobby message is made of. */
export interface NewLobbyMessage {
  id: string;
  lobbyId: string;
  applicationId: string;
  content: string;
  metadata: Metadata;
  /** The author's user object (as oauth describes it). */
  author: JsonRecord;
  /** The author's `additional_name` in the lobby when the message was sent. */
  additionalName: string | null;
}

/** The lobby message object (B3; OAS LobbyMessageResponse), without moderation metadata. */
export function renderLobbyMessage(message: NewLobbyMessage): JsonRecord {
  const rendered: JsonRecord = {
    id: message.id,
    type: 0,
    content: message.content,
    lobby_id: message.lobbyId,
    channel_id: message.lobbyId,
    author: message.author,
    flags: LOBBY_MESSAGE_FLAGS,
    application_id: message.applicationId,
  };
  if (message.additionalName !== null) rendered.lobby_member = { additional_name: message.additionalName };
  if (message.metadata !== null) rendered.metadata = message.metadata;
  return rendered;
}

import {
  memberEvent,
  renderGatewayLobby,
  type JsonRecord,
  type LobbyRecord,
  type MemberRecord,
} from './lobby-objects';

/** Who hears of a lobby's change: its application and the users whose sessions receive it. */
interface Audience {
  application_id: string;
  lobby_id: string;
  user_ids: string[];
}

/** The guild channel a lobby is linked to, as its message events carry it. */
export type LinkedChannelRef = { guild_id: string; channel_id: string } | null;

/**
 * An event a lobby change emits, as the domain plans it: its catalog name (`@acs/events`)
 * and its data, audience included. The store turns each into an outbox row.
 */
export type LobbyEvent =
  | { name: 'lobby.lobby.created' | 'lobby.lobby.updated'; data: Audience & { lobby: JsonRecord } }
  | { name: 'lobby.lobby.deleted'; data: Audience & { reason: 'deleted' | 'removed' } }
  | {
      name: 'lobby.member.changed';
      data: Audience & { change: 'added' | 'updated' | 'removed'; member: JsonRecord };
    }
  | {
      name: 'lobby.message.created' | 'lobby.message.updated';
      data: Audience & {
        message: JsonRecord;
        override_event_webhooks_url: string | null;
        linked_channel: LinkedChannelRef;
      };
    };

/** A member a change added or updated. */
export interface MemberChange {
  member: MemberRecord;
  added: boolean;
}

/** LOBBY_CREATE / LOBBY_UPDATE: the lobby as gateway events carry it, to its members. */
export function lobbyStateEvent(
  name: 'lobby.lobby.created' | 'lobby.lobby.updated',
  lobby: LobbyRecord,
): LobbyEvent {
  return {
    name,
    data: {
      application_id: lobby.applicationId,
      lobby_id: lobby.id,
      user_ids: lobby.members.map((m) => m.userId),
      lobby: renderGatewayLobby(lobby),
    },
  };
}

/** LOBBY_DELETE to `userIds`: the lobby ended (`deleted`) or they left it (`removed`). */
export function lobbyDeletedEvent(
  lobby: { id: string; applicationId: string },
  userIds: string[],
  reason: 'deleted' | 'removed',
): LobbyEvent {
  return {
    name: 'lobby.lobby.deleted',
    data: { application_id: lobby.applicationId, lobby_id: lobby.id, user_ids: userIds, reason },
  };
}

/**
 * LOBBY_MEMBER_ADD / _UPDATE for `changes` and _REMOVE for `removed`, to the members after
 * the change and the removed; then LOBBY_DELETE `removed` to the removed, whose sessions
 * leave the lobby.
 */
export function memberEvents(
  lobby: LobbyRecord,
  changes: readonly MemberChange[],
  removed: readonly MemberRecord[],
): LobbyEvent[] {
  const audience = [...lobby.members.map((m) => m.userId), ...removed.map((m) => m.userId)];
  const event = (change: 'added' | 'updated' | 'removed', member: MemberRecord): LobbyEvent => ({
    name: 'lobby.member.changed',
    data: {
      application_id: lobby.applicationId,
      lobby_id: lobby.id,
      user_ids: audience,
      change,
      member: memberEvent(lobby, member).member as JsonRecord,
    },
  });
  const events = [
    ...changes.map((c) => event(c.added ? 'added' : 'updated', c.member)),
    ...removed.map((m) => event('removed', m)),
  ];
  if (removed.length > 0) {
    events.push(
      lobbyDeletedEvent(
        lobby,
        removed.map((m) => m.userId),
        'removed',
      ),
    );
  }
  return events;
}

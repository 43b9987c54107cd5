import { lobbyStateEvent, memberEvents, type LobbyEvent, type MemberChange } from './lobby-events';
import type { LobbyRecord, MemberRecord } from './lobby-objects';
import type { JoinInput, MemberInput } from './read-lobby-bodies';

/**
 * The member a user becomes by PUT /lobbies: `member_metadata` when given, else what they
 * had; their flags kept (0 for a new member) and their `additional_name` untouched.
 */
export function planJoinMember(userId: string, input: JoinInput, old: MemberRecord | undefined): MemberInput {
  return {
    id: userId,
    metadata: input.memberMetadata !== undefined ? input.memberMetadata : (old?.metadata ?? null),
    flags: old?.flags ?? 0,
    additionalName: undefined,
    remove: false,
  };
}

/**
 * The events of a join: LOBBY_CREATE when it created the lobby; else LOBBY_UPDATE when it
 * overwrote the lobby's settings, then the member's LOBBY_MEMBER_ADD / _UPDATE.
 */
export function planJoinEvents(
  created: boolean,
  input: JoinInput,
  lobby: LobbyRecord,
  changes: readonly MemberChange[],
): LobbyEvent[] {
  if (created) return [lobbyStateEvent('lobby.lobby.created', lobby)];
  const events: LobbyEvent[] = [];
  if (input.lobbyMetadata !== undefined || input.idleTimeoutSeconds !== undefined) {
    events.push(lobbyStateEvent('lobby.lobby.updated', lobby));
  }
  events.push(...memberEvents(lobby, changes, []));
  return events;
}

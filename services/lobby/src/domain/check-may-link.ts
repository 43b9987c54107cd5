import { NotLobbyMemberError } from './lobby-errors';
import { CAN_LINK_LOBBY } from './lobby-limits';
import type { LobbyRecord } from './lobby-objects';

/** Who may link or unlink a lobby's channel: a member with CanLinkLobby (else 403 / 50001). */
export function checkMayLink(lobby: LobbyRecord, userId: string): void {
  const member = lobby.members.find((m) => m.userId === userId);
  if (!member || (member.flags & CAN_LINK_LOBBY) === 0) throw new NotLobbyMemberError();
}

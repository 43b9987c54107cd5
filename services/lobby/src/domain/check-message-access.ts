import { NotLobbyMemberError } from './lobby-errors';

/** Who reads or posts a lobby's messages: the application's bot, or a user who is a member (else 403 / 50001). */
export function checkMessageAccess(caller: { bot: boolean }, isMember: boolean): void {
  if (!caller.bot && !isMember) throw new NotLobbyMemberError();
}

import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { requireBot } from '../domain/require-scope';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';

/**
 * `PATCH /guilds/{guild.id}/members/{user.id}` (D:resources/guild.mdx §Modify Guild
 * Member) for bots (a Bearer token 403 / 20002, a session token 401): `communication_disabled_until` (a timeout,
 * MODERATE_MEMBERS), `nick` (MANAGE_NICKNAMES), `roles` (MANAGE_ROLES), with the role
 * hierarchy; permissions decides and answers the member (200), its `user` filled in here
 * from oauth. GUILD_MEMBER_UPDATE follows from its `member.updated` event.
 * `X-Audit-Log-Reason` is accepted as on every moderation route; ACS keeps no audit log.
 */
export function guildMemberRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { permissions, oauth } = clients;
  const modify: RequestHandler = async (req, res) => {
    const guildId = snowflakeParam(req, 'guild_id');
    const userId = snowflakeParam(req, 'user_id');
    const principal = await auth.authenticate(req);
    requireBot(principal);
    const memberJson = await permissions.modifyMember(guildId, userId, principal.userId, req.rawBody ?? '');
    const member = JSON.parse(memberJson) as Record<string, unknown>;
    const user = JSON.parse(await oauth.getPublicUser(userId)) as Record<string, unknown>;
    sendJson(res, 200, { ...member, user });
  };
  return [
    {
      method: 'patch',
      path: '/guilds/:guild_id/members/:user_id',
      handlers: [...readBody, modify],
      credential: 'token',
    },
  ];
}

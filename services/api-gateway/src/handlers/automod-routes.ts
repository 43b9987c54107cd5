import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { AutoModRuleCall, AutoModRuleCallKind } from '../clients/interactions-client';
import type { PeerClients } from '../clients/peer-clients';
import { snowflakeParam } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/**
 * A guild's AutoMod rules (D:resources/auto-moderation.mdx §List, §Get, §Create, §Modify,
 * §Delete Auto Moderation Rule), for a bot or a user's session with MANAGE_GUILD (an OAuth2
 * Bearer token is 401): the interactions service owns the rules, beside the messages they
 * judge. `X-Audit-Log-Reason` is passed on (URL-encoded, as Discord takes it).
 */
export function autoModRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const { interactions } = clients;

  async function callOf(req: Request, withRule: boolean, withBody: boolean): Promise<AutoModRuleCall> {
    const guildId = snowflakeParam(req, 'guild_id');
    const ruleId = withRule ? snowflakeParam(req, 'rule_id') : undefined;
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    const reason = req.get('X-Audit-Log-Reason');
    return {
      guildId,
      ...(ruleId === undefined ? {} : { ruleId }),
      userId: principal.userId,
      ...(withBody ? { bodyJson: req.rawBody ?? '' } : {}),
      ...(reason === undefined ? {} : { auditLogReason: decodeReason(reason) }),
    };
  }

  const answer =
    (kind: AutoModRuleCallKind, withRule: boolean, withBody: boolean): RequestHandler =>
    async (req, res) => {
      const json = await interactions.autoModRules(kind, await callOf(req, withRule, withBody));
      if (kind === 'delete') sendNoContent(res);
      else sendJson(res, 200, json);
    };

  const credential = 'token-or-session' as const;
  const rules = '/guilds/:guild_id/auto-moderation/rules';
  const rule = `${rules}/:rule_id`;
  return [
    { method: 'get', path: rules, handlers: [answer('list', false, false)], credential },
    { method: 'post', path: rules, handlers: [...readBody, answer('create', false, true)], credential },
    { method: 'get', path: rule, handlers: [answer('get', true, false)], credential },
    { method: 'patch', path: rule, handlers: [...readBody, answer('update', true, true)], credential },
    { method: 'delete', path: rule, handlers: [answer('delete', true, false)], credential },
  ];
}

/** The reason as sent (URL-encoded UTF-8); a malformed encoding is kept as it came. */
function decodeReason(reason: string): string {
  try {
    return decodeURIComponent(reason);
  } catch {
    return reason;
  }
}

import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { ReactionCall } from '../clients/interactions-client';
import type { PeerClients } from '../clients/peer-clients';
import { integerQuery, snowflakeParam, snowflakeQuery } from '../http/path-params';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** Get Reactions' `limit`: 1-100 (D:resources/message.mdx §Get Reactions). */
const MAX_REACTIONS_PAGE = 100;

/**
 * The reactions of a channel's messages (D:resources/message.mdx §Create Reaction, §Delete
 * Own Reaction, §Delete User Reaction, §Get Reactions, §Delete All Reactions, §Delete All
 * Reactions for Emoji), for a bot or a user's session (Bearer: 401). The path's emoji is
 * URL-decoded here and judged by interactions (400 / 10014 for one it does not know).
 * Must be mounted before the message routes' `…/messages/:message_id`. The five writes count
 * in one rate-limit bucket per channel, as Discord's do.
 */
export function reactionRoutes(clients: PeerClients, auth: Authenticator): Route[] {
  const { interactions } = clients;

  /** The call of a route: its message, the caller, and the emoji when the path has one. */
  async function callOf(req: Request): Promise<ReactionCall> {
    const channelId = snowflakeParam(req, 'channel_id');
    const messageId = snowflakeParam(req, 'message_id');
    const emoji = typeof req.params.emoji === 'string' ? req.params.emoji : undefined;
    const principal = await auth.authenticate(req, true);
    if (principal.kind === 'bearer') throw new UnauthorizedError();
    return { channelId, messageId, userId: principal.userId, ...(emoji === undefined ? {} : { emoji }) };
  }

  const addOwn: RequestHandler = async (req, res) => {
    await interactions.addReaction(await callOf(req));
    sendNoContent(res);
  };

  const removeOwn: RequestHandler = async (req, res) => {
    const call = await callOf(req);
    await interactions.removeReaction({ ...call, targetUserId: call.userId });
    sendNoContent(res);
  };

  const removeUser: RequestHandler = async (req, res) => {
    const targetUserId = snowflakeParam(req, 'user_id');
    await interactions.removeReaction({ ...(await callOf(req)), targetUserId });
    sendNoContent(res);
  };

  const removeAll: RequestHandler = async (req, res) => {
    await interactions.removeReactions(await callOf(req));
    sendNoContent(res);
  };

  const list: RequestHandler = async (req, res) => {
    const query = {
      after: snowflakeQuery(req, 'after'),
      ...optional('type', integerQuery(req, 'type', 0, 1)),
      ...optional('limit', integerQuery(req, 'limit', 1, MAX_REACTIONS_PAGE)),
    };
    sendJson(res, 200, await interactions.listReactionUsers({ ...(await callOf(req)), ...query }));
  };

  const credential = 'token-or-session' as const;
  // One bucket per channel for the five that change reactions, at its own limit (RateLimits.buckets).
  const rateLimit = { bucket: 'reactions' };
  const reactions = '/channels/:channel_id/messages/:message_id/reactions';
  const emoji = `${reactions}/:emoji`;
  return [
    { method: 'put', path: `${emoji}/@me`, handlers: [addOwn], credential, rateLimit },
    { method: 'delete', path: `${emoji}/@me`, handlers: [removeOwn], credential, rateLimit },
    { method: 'delete', path: `${emoji}/:user_id`, handlers: [removeUser], credential, rateLimit },
    { method: 'get', path: emoji, handlers: [list], credential },
    { method: 'delete', path: emoji, handlers: [removeAll], credential, rateLimit },
    { method: 'delete', path: reactions, handlers: [removeAll], credential, rateLimit },
  ];
}

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}

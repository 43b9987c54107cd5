import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { LobbyClient } from '../clients/lobby-client';
import type { Principal } from '../domain/principal';
import { requireBearer, requireBot, requireScope } from '../domain/require-scope';
import type { ApplicationLimit, ApplicationRateLimiter } from '../http/application-rate-limiter';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';

/** The Social SDK scope a Bearer token must hold on the lobby routes that take one. */
export const SOCIAL_LAYER_SCOPE = 'sdk.social_layer';

/** The development rate limits of the lobby routes (per application, B2). */
export interface LobbyRateLimits {
  /** 100 per 2 h: create, create-or-join, update, members, bulk, messages. */
  write: ApplicationLimit;
  /** 20 per 2 h: channel linking. */
  link: ApplicationLimit;
}

/** Who may call a route: the owning app's bot, a member's Bearer token (`sdk.social_layer`), or either. */
type Accepts = 'bot' | 'bearer' | 'bot-or-bearer';

/** What a lobby route passes on: path parameters, body and `limit` as sent ('' when absent). */
interface LobbyRequest {
  lobbyId: string;
  userId: string;
  messageId: string;
  bodyJson: string;
  limit: string;
}

/** A route's call of its lobby RPC: the JSON text to answer, nothing for a 204. */
type LobbyCall = (lobby: LobbyClient, caller: Principal, req: LobbyRequest) => Promise<string | void>;

interface LobbyRouteSpec {
  method: Route['method'];
  path: string;
  call: LobbyCall;
  accepts: Accepts;
  /** 201 for a creation, 204 when the service answers nothing, else 200. */
  status: 200 | 201 | 204;
  body: boolean;
  /** Which development limit counts it, if any (GET, DELETE lobby, leave and moderation are not listed). */
  limit?: keyof LobbyRateLimits;
}

/** FACTS §13 with the B1 choices: the auth of each route, its answer, its limit. */
const LOBBY_ROUTES: LobbyRouteSpec[] = [
  {
    method: 'post',
    path: '/lobbies',
    call: (lobby, caller, r) => lobby.createLobby(caller, r.bodyJson),
    accepts: 'bot',
    status: 201,
    body: true,
    limit: 'write',
  },
  {
    method: 'put',
    path: '/lobbies',
    call: (lobby, caller, r) => lobby.createOrJoinLobby(caller, r.bodyJson),
    accepts: 'bot-or-bearer',
    status: 200,
    body: true,
    limit: 'write',
  },
  {
    method: 'get',
    path: '/lobbies/:lobby_id',
    call: (lobby, caller, r) => lobby.getLobby(caller, r.lobbyId),
    accepts: 'bot',
    status: 200,
    body: false,
  },
  {
    method: 'patch',
    path: '/lobbies/:lobby_id',
    call: (lobby, caller, r) => lobby.updateLobby(caller, r.lobbyId, r.bodyJson),
    accepts: 'bot',
    status: 200,
    body: true,
    limit: 'write',
  },
  {
    method: 'delete',
    path: '/lobbies/:lobby_id',
    call: (lobby, caller, r) => lobby.deleteLobby(caller, r.lobbyId),
    accepts: 'bot',
    status: 204,
    body: false,
  },
  // Before `…/members/:user_id`: `@me` is the caller, not an id.
  {
    method: 'delete',
    path: '/lobbies/:lobby_id/members/@me',
    call: (lobby, caller, r) => lobby.removeMember(caller, r.lobbyId, r.userId),
    accepts: 'bearer',
    status: 204,
    body: false,
  },
  {
    method: 'post',
    path: '/lobbies/:lobby_id/members/bulk',
    call: (lobby, caller, r) => lobby.bulkUpdateMembers(caller, r.lobbyId, r.bodyJson),
    accepts: 'bot',
    status: 200,
    body: true,
    limit: 'write',
  },
  {
    method: 'put',
    path: '/lobbies/:lobby_id/members/:user_id',
    call: (lobby, caller, r) => lobby.putMember(caller, r.lobbyId, r.userId, r.bodyJson),
    accepts: 'bot',
    status: 200,
    body: true,
    limit: 'write',
  },
  {
    method: 'delete',
    path: '/lobbies/:lobby_id/members/:user_id',
    call: (lobby, caller, r) => lobby.removeMember(caller, r.lobbyId, r.userId),
    accepts: 'bot',
    status: 204,
    body: false,
    limit: 'write',
  },
  {
    method: 'post',
    path: '/lobbies/:lobby_id/messages',
    call: (lobby, caller, r) => lobby.createMessage(caller, r.lobbyId, r.bodyJson),
    accepts: 'bot-or-bearer',
    status: 201,
    body: true,
    limit: 'write',
  },
  {
    method: 'get',
    path: '/lobbies/:lobby_id/messages',
    call: (lobby, caller, r) => lobby.listMessages(caller, r.lobbyId, r.limit),
    accepts: 'bot-or-bearer',
    status: 200,
    body: false,
  },
  {
    method: 'patch',
    path: '/lobbies/:lobby_id/channel-linking',
    call: (lobby, caller, r) => lobby.linkChannel(caller, r.lobbyId, r.bodyJson),
    accepts: 'bearer',
    status: 200,
    body: true,
    limit: 'link',
  },
  {
    method: 'put',
    path: '/lobbies/:lobby_id/messages/:message_id/moderation-metadata',
    call: (lobby, caller, r) => lobby.setModerationMetadata(caller, r.lobbyId, r.messageId, r.bodyJson),
    accepts: 'bot',
    status: 204,
    body: true,
  },
];

/** The route's caller, or the error of one it does not take. */
function checkPrincipal(principal: Principal, accepts: Accepts): void {
  if (accepts === 'bot') requireBot(principal);
  else if (accepts === 'bearer') requireBearer(principal);
  requireScope(principal, SOCIAL_LAYER_SCOPE);
}

/** `?limit=` as sent: '' when absent; a repeated parameter is passed on as text the service refuses. */
function limitOf(req: Request): string {
  const value = req.query.limit;
  if (value === undefined) return '';
  return typeof value === 'string' ? value : 'NaN';
}

/**
 * The Social SDK lobby routes (lobby service; FACTS §13, B1-B5). Each authenticates its
 * caller (a bot token, or a Bearer token that must hold `sdk.social_layer`; a user's
 * session token is 401), counts the development limits per application, and passes path,
 * body and `limit` on as sent: lobby validates everything and answers Discord's errors.
 */
export function lobbyRoutes(
  lobby: LobbyClient,
  auth: Authenticator,
  readBody: RequestHandler[],
  limits: { limiter: ApplicationRateLimiter; lobby: LobbyRateLimits },
): Route[] {
  return LOBBY_ROUTES.map((spec) => {
    const routeId = `${spec.method.toUpperCase()} ${spec.path}`;
    const handle: RequestHandler = async (req, res) => {
      const principal = await auth.authenticate(req, false);
      checkPrincipal(principal, spec.accepts);
      if (spec.limit)
        await limits.limiter.hit(res, routeId, principal.applicationId, limits.lobby[spec.limit]);
      const request: LobbyRequest = {
        lobbyId: String(req.params.lobby_id ?? ''),
        userId: spec.path.endsWith('/@me') ? '@me' : String(req.params.user_id ?? ''),
        messageId: String(req.params.message_id ?? ''),
        bodyJson: spec.body ? (req.rawBody ?? '') : '',
        limit: limitOf(req),
      };
      const json = await spec.call(lobby, principal, request);
      if (spec.status === 204 || json === undefined) sendNoContent(res);
      // lobby's JSON text, passed through as it is.
      else sendJson(res, spec.status, json);
    };
    return {
      method: spec.method,
      path: spec.path,
      handlers: spec.body ? [...readBody, handle] : [handle],
      credential: 'token',
    };
  });
}

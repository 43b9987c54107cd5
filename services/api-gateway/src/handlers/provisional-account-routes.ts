import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { requireBearer, requireBot, requireScope } from '../domain/require-scope';
import { SOCIAL_LAYER_SCOPE } from './lobby-routes';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';
import type { IssuerOf } from '../http/issuer-of';

/**
 * The Social SDK's provisional-account routes (facts A.1, A.2): `POST /partner-sdk/token/bot`
 * takes the bot token of the application whose player it is (a Bearer token is 403 /
 * 20002, a session 401); `POST /partner-sdk/token` takes no token (the client and the
 * provider's token are in the body). Each passes the JSON body on as sent: oauth validates
 * it and answers the token, or 50035 / 5300xx. `PATCH /users/@me/account` renames a
 * provisional account (facts A.3, UD: what the SDK's UpdateProvisionalAccountDisplayName
 * calls) with its Bearer token holding `sdk.social_layer` (a bot is 403 / 20001).
 */
export function provisionalAccountRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  issuerOf: IssuerOf,
): Route[] {
  const { provisional } = clients.oauth;

  const botToken: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    sendJson(
      res,
      200,
      await provisional.issueBotToken(principal.applicationId, req.rawBody ?? '', issuerOf(req)),
    );
  };

  const rename: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBearer(principal);
    requireScope(principal, SOCIAL_LAYER_SCOPE);
    sendJson(
      res,
      200,
      await provisional.rename(principal.applicationId, principal.userId, req.rawBody ?? ''),
    );
  };

  // Unmerges (facts A.4b): 204; the full account's tokens for the app die at once here too.
  const unmergeBot: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    auth.cache.invalidateApplication(
      await provisional.unmergeBot(principal.applicationId, req.rawBody ?? ''),
    );
    sendNoContent(res);
  };

  const unmerge: RequestHandler = async (req, res) => {
    auth.cache.invalidateApplication(await provisional.unmerge(req.rawBody ?? ''));
    sendNoContent(res);
  };

  const exchange: RequestHandler = async (req, res) => {
    sendJson(res, 200, await provisional.exchange(req.rawBody ?? '', issuerOf(req)));
  };

  return [
    {
      method: 'post',
      path: '/partner-sdk/token/bot',
      handlers: [...readBody, botToken],
      credential: 'token',
    },
    { method: 'post', path: '/partner-sdk/token', handlers: [...readBody, exchange] },
    {
      method: 'post',
      path: '/partner-sdk/provisional-accounts/unmerge/bot',
      handlers: [...readBody, unmergeBot],
      credential: 'token',
    },
    { method: 'post', path: '/partner-sdk/provisional-accounts/unmerge', handlers: [...readBody, unmerge] },
    { method: 'patch', path: '/users/@me/account', handlers: [...readBody, rename], credential: 'token' },
  ];
}

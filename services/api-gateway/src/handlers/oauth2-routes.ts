import type { Request, RequestHandler } from 'express';
import { OAuth2Error, UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { TokenGrant } from '../clients/oauth-client';
import type { PeerClients } from '../clients/peer-clients';
import { readClientAuthentication } from '../domain/client-authentication';
import { readFormBody } from '../http/read-form-body';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import type { IssuerOf } from '../http/issuer-of';
import { requireBearer, requireBot } from '../domain/require-scope';
import { verifyEndpointUrls } from './verify-endpoint-urls';

/** The token of a `Bearer` Authorization header ('' when there is none). */
function bearerToken(req: Request): string {
  const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? '';
}

/**
 * The OAuth2 routes: the token endpoint and RFC 7009 revocation (form bodies, RFC 6749
 * error bodies, never cached), and what a token or bot may read of its authorization and
 * application.
 */
export function oauth2Routes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  maxBodyBytes: number,
  issuerOf: IssuerOf,
): Route[] {
  const { oauth, dispatcher } = clients;
  const readForm = readFormBody(maxBodyBytes);

  // RFC 6749 §5.1: token answers (and their errors) are never stored by caches.
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    next();
  };

  const token: RequestHandler = async (req, res) => {
    const { client, params } = readClientAuthentication(req.headers.authorization, req.form ?? {});
    let grant: TokenGrant;
    try {
      grant = await oauth.exchangeToken(client, params, issuerOf(req));
    } catch (error) {
      // A failed exchange may have revoked a grant (code or refresh token reuse): drop
      // this client's cached tokens so that the revocation holds here at once.
      if (error instanceof OAuth2Error && error.error === 'invalid_grant') {
        auth.cache.invalidateApplication(client.clientId);
      }
      throw error;
    }
    // A merge (facts A.4) revoked the provisional account's tokens: they fail here at once.
    if (params.external_auth_token !== undefined) auth.cache.invalidateApplication(client.clientId);
    sendJson(res, 200, {
      access_token: grant.accessToken,
      token_type: grant.tokenType,
      expires_in: grant.expiresIn,
      ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
      scope: grant.scope,
      ...(grant.idToken ? { id_token: grant.idToken } : {}),
    });
  };

  const revoke: RequestHandler = async (req, res) => {
    const { client, params } = readClientAuthentication(req.headers.authorization, req.form ?? {});
    const answer = await oauth.revokeToken(client, params.token ?? '', params.token_type_hint ?? '');
    if (answer.revoked) auth.cache.invalidateApplication(answer.applicationId);
    // RFC 7009 §2.2: 200 whether or not the token was known; the body is empty.
    res.status(200).end();
  };

  const me: RequestHandler = async (req, res) => {
    requireBearer(await auth.authenticate(req));
    const raw = bearerToken(req);
    if (raw === '') throw new UnauthorizedError();
    sendJson(res, 200, await oauth.describeAuthorization(raw));
  };

  const application: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    sendJson(res, 200, await oauth.getApplication(principal.applicationId));
  };

  // PATCH /applications/@me: the bot edits its own application, with the admin PATCH's
  // endpoint verification and, in oauth, its field readers.
  const editApplication: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    const application_id = principal.applicationId;
    await verifyEndpointUrls(dispatcher, application_id, req.body);
    const application = await oauth.updateCurrentApplication(application_id, req.rawBody ?? '');
    // The flags resolved tokens carry may have changed (oauth also announces it).
    auth.cache.invalidateApplication(application_id);
    sendJson(res, 200, application);
  };

  return [
    { method: 'post', path: '/oauth2/token', handlers: [noStore, ...readForm, token] },
    { method: 'post', path: '/oauth2/token/revoke', handlers: [noStore, ...readForm, revoke] },
    { method: 'get', path: '/oauth2/@me', handlers: [me], credential: 'token' },
    { method: 'get', path: '/oauth2/applications/@me', handlers: [application], credential: 'token' },
    { method: 'get', path: '/applications/@me', handlers: [application], credential: 'token' },
    {
      method: 'patch',
      path: '/applications/@me',
      handlers: [...readBody, editApplication],
      credential: 'token',
    },
  ];
}

import type { Request, RequestHandler } from 'express';
import type { oauth } from '@acs/protos';
import { fromGrpcError } from '@acs/service-kit';
import { invalidClientError, OAuth2Error, oauth2BadRequest, UnauthorizedError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import { call, type BackendClients } from '../clients/backend-clients';
import { readFormBody } from '../http/read-form-body';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import { requireBearer, requireBot } from '../domain/require-scope';
import { verifyEndpointUrls } from './verify-endpoint-urls';

/** The client of a token or revocation request, and the form without its credentials. */
interface ClientRequest {
  client_id: string;
  client_secret: string;
  auth_method: oauth.ClientAuthMethod;
  params: Record<string, string>;
}

const BASIC = /^basic\s+(\S+)\s*$/i;

/** Decodes one half of Basic credentials (RFC 6749 §2.3.1: form-urlencoded, then base64). */
function decodeCredential(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalidClientError();
  }
}

/**
 * Reads client authentication (RFC 6749 §2.3.1): HTTP Basic, or `client_id` and
 * `client_secret` form fields, never both (`invalid_request`); no client id at all is
 * 401 `invalid_client`.
 */
function readClient(req: Request): ClientRequest {
  const { client_id: formId, client_secret: formSecret, ...params } = req.form ?? {};
  const basic = BASIC.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClientError();
    const clientId = decodeCredential(decoded.slice(0, colon));
    if (formSecret !== undefined) {
      throw oauth2BadRequest('invalid_request', 'Use one client authentication method, not several.');
    }
    if (formId !== undefined && formId !== clientId) {
      throw oauth2BadRequest('invalid_request', 'The client_id differs from the authenticated client.');
    }
    return {
      client_id: clientId,
      client_secret: decodeCredential(decoded.slice(colon + 1)),
      auth_method: 'CLIENT_AUTH_METHOD_BASIC',
      params,
    };
  }
  if (formId === undefined || formId === '') throw invalidClientError('Client authentication is required.');
  return {
    client_id: formId,
    client_secret: formSecret ?? '',
    auth_method: formSecret === undefined ? 'CLIENT_AUTH_METHOD_NONE' : 'CLIENT_AUTH_METHOD_POST',
    params,
  };
}

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
  backends: BackendClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  maxBodyBytes: number,
): Route[] {
  const { oauth, dispatcher } = backends;
  const readForm = readFormBody(maxBodyBytes);

  // RFC 6749 §5.1: token answers (and their errors) are never stored by caches.
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    next();
  };

  const token: RequestHandler = async (req, res) => {
    const client = readClient(req);
    let answer: oauth.ExchangeTokenResponse__Output;
    try {
      answer = await call(oauth, oauth.ExchangeToken, client);
    } catch (error) {
      const known = fromGrpcError(error);
      // A failed exchange may have revoked a grant (code or refresh token reuse): drop
      // this client's cached tokens so that the revocation holds here at once.
      if (known instanceof OAuth2Error && known.error === 'invalid_grant') {
        auth.cache.invalidateApplication(client.client_id);
      }
      throw known ?? error;
    }
    sendJson(res, 200, {
      access_token: answer.access_token,
      token_type: answer.token_type,
      expires_in: answer.expires_in,
      ...(answer.refresh_token ? { refresh_token: answer.refresh_token } : {}),
      scope: answer.scope,
    });
  };

  const revoke: RequestHandler = async (req, res) => {
    const { params, ...client } = readClient(req);
    const answer = await call(oauth, oauth.RevokeToken, {
      ...client,
      token: params.token ?? '',
      token_type_hint: params.token_type_hint ?? '',
    });
    if (answer.revoked) auth.cache.invalidateApplication(answer.application_id);
    // RFC 7009 §2.2: 200 whether or not the token was known; the body is empty.
    res.status(200).end();
  };

  const me: RequestHandler = async (req, res) => {
    requireBearer(await auth.authenticate(req));
    const raw = bearerToken(req);
    if (raw === '') throw new UnauthorizedError();
    const answer = await call(oauth, oauth.DescribeAuthorization, { token: raw });
    sendJson(res, 200, answer.authorization_json);
  };

  const application: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    const answer = await call(oauth, oauth.GetApplication, { application_id: principal.applicationId });
    sendJson(res, 200, answer.application_json);
  };

  // PATCH /applications/@me: the bot edits its own application, with the admin PATCH's
  // endpoint verification and, in oauth, its field readers.
  const editApplication: RequestHandler = async (req, res) => {
    const principal = await auth.authenticate(req);
    requireBot(principal);
    const application_id = principal.applicationId;
    await verifyEndpointUrls(dispatcher, application_id, req);
    const answer = await call(oauth, oauth.UpdateCurrentApplication, {
      application_id,
      body_json: req.rawBody ?? '',
    });
    // The flags resolved tokens carry may have changed (oauth also announces it).
    auth.cache.invalidateApplication(application_id);
    sendJson(res, 200, answer.application_json);
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

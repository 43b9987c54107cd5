import type { RequestHandler } from 'express';
import type { PeerClients } from '../clients/peer-clients';
import { renderOpenIdConfiguration } from '../domain/openid-configuration';
import type { IssuerOf } from '../http/issuer-of';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';

/**
 * OpenID Connect's public documents (facts A.6), unauthenticated: `GET /oauth2/keys` under
 * the API (the JWKS that verifies ID tokens) and `GET /.well-known/openid-configuration` at
 * the site root, where a JOSE library looks for it given the issuer.
 */
export function openIdRoutes(clients: PeerClients, issuerOf: IssuerOf): { api: Route[]; wellKnown: Route[] } {
  const keys: RequestHandler = async (_req, res) => {
    sendJson(res, 200, await clients.oauth.getIdTokenKeys());
  };
  const configuration: RequestHandler = (req, res) => {
    sendJson(res, 200, renderOpenIdConfiguration(issuerOf(req)));
  };
  return {
    api: [{ method: 'get', path: '/oauth2/keys', handlers: [keys] }],
    wellKnown: [{ method: 'get', path: '/openid-configuration', handlers: [configuration] }],
  };
}

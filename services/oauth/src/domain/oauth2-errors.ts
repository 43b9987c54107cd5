import { oauth2BadRequest, type OAuth2Error } from '@acs/discord-errors';

// The errors of the token endpoint (RFC 6749 §5.2). Descriptions follow the real
// service's where known (facts §11: `Invalid "code" in request.`).

/** 400 `invalid_request`. */
export function invalidRequest(description: string): OAuth2Error {
  return oauth2BadRequest('invalid_request', description);
}

/** 400 `invalid_grant` naming the parameter at fault. */
export function invalidGrant(parameter: string): OAuth2Error {
  return oauth2BadRequest('invalid_grant', `Invalid "${parameter}" in request.`);
}

/** 400 `invalid_scope`. */
export function invalidScope(description: string): OAuth2Error {
  return oauth2BadRequest('invalid_scope', description);
}

/** 400 `unauthorized_client`: this client may not use this grant type. */
export function unauthorizedClient(description: string): OAuth2Error {
  return oauth2BadRequest('unauthorized_client', description);
}

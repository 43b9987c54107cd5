import { DiscordError } from './discord-error';

/** RFC 6749 §5.2 error codes (and RFC 7009 §2.2.1's `unsupported_token_type`). */
export type OAuth2ErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

/** The body of an OAuth2 error answer (RFC 6749 §5.2). */
export interface OAuth2ErrorBody {
  error: OAuth2ErrorCode;
  error_description?: string;
}

/**
 * An error of the OAuth2 token and revocation endpoints: answered as an RFC 6749 body
 * `{error, error_description?}` with its status and headers (e.g. `WWW-Authenticate`),
 * not as a Discord error body. It travels the one error path: service → gRPC detail →
 * api-gateway's renderer. It extends DiscordError so that code handling errors
 * generically (status, logging) keeps working.
 */
export class OAuth2Error extends DiscordError {
  constructor(
    httpStatus: number,
    readonly error: OAuth2ErrorCode,
    readonly errorDescription?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(httpStatus, 0, errorDescription ?? error);
  }

  /** The RFC 6749 body. */
  toOAuth2Body(): OAuth2ErrorBody {
    return this.errorDescription === undefined
      ? { error: this.error }
      : { error: this.error, error_description: this.errorDescription };
  }
}

/** 400 with an RFC 6749 error code other than `invalid_client`. */
export function oauth2BadRequest(
  error: Exclude<OAuth2ErrorCode, 'invalid_client'>,
  description?: string,
): OAuth2Error {
  return new OAuth2Error(400, error, description);
}

/**
 * 401 `invalid_client` with `WWW-Authenticate: Basic` (RFC 6749 §5.2: a client that
 * authenticated with the Authorization header MUST get 401 and the scheme it used; we
 * answer every failed client authentication the same way).
 */
export function invalidClientError(description = 'Invalid client credentials.'): OAuth2Error {
  return new OAuth2Error(401, 'invalid_client', description, { 'WWW-Authenticate': 'Basic realm="ACS"' });
}

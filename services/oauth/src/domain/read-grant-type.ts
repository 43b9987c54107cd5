import { oauth2BadRequest } from '@acs/discord-errors';
import { GRANT_TYPES, type GrantType } from './authenticate-client';
import { invalidRequest } from './oauth2-errors';

/** The request's `grant_type`: missing → `invalid_request`, unknown → `unsupported_grant_type` (RFC 6749 §5.2). */
export function readGrantType(value: string | undefined): GrantType {
  if (value === undefined || value === '') throw invalidRequest('Missing "grant_type" in request.');
  if ((GRANT_TYPES as readonly string[]).includes(value)) return value as GrantType;
  throw oauth2BadRequest('unsupported_grant_type', `Unsupported grant type "${value.slice(0, 64)}".`);
}

import type { ApplicationRecord, UserRecord } from './records';
import { renderApplication } from './render-application';
import { renderPublicUser } from './render-user';

/** The fields of `GET /oauth2/@me`'s partial application (OAS `ApplicationResponse`). */
const PARTIAL_APPLICATION_FIELDS = [
  'id',
  'name',
  'icon',
  'description',
  'type',
  'bot',
  'rpc_origins',
  'bot_public',
  'bot_require_code_grant',
  'integration_types_config',
  'verify_key',
  'flags',
  'flags_new',
] as const;

/**
 * `GET /oauth2/@me` (facts §11; OAS `OAuth2GetAuthorizationResponse`): the partial
 * application, the token's scopes, its expiry, and the user when `identify` was granted.
 */
export function renderAuthorization(input: {
  application: ApplicationRecord;
  scopes: readonly string[];
  expiresAt: Date;
  user: UserRecord | null;
}): Record<string, unknown> {
  const app = renderApplication(input.application);
  return {
    application: Object.fromEntries(PARTIAL_APPLICATION_FIELDS.map((key) => [key, app[key]])),
    scopes: input.scopes,
    expires: input.expiresAt.toISOString(),
    ...(input.user && input.scopes.includes('identify') ? { user: renderPublicUser(input.user) } : {}),
  };
}

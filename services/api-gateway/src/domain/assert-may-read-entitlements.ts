import { DiscordError } from '@acs/discord-errors';
import { hasScope, type Principal } from './principal';

/** The scope a Bearer token needs for an application's entitlements and subscriptions. */
export const ENTITLEMENTS_SCOPE = 'applications.entitlements';

/**
 * The caller of a monetization route must be the application's bot or, where the route
 * allows it, a Bearer token granted to that application with `applications.entitlements`:
 * a user's session is 401, another application's token 403 / 20012, a Bearer token
 * without the scope 403 / 50026, a Bearer token on a bot-only route 403 / 20002.
 */
export function assertMayReadEntitlements(
  principal: Principal,
  applicationId: string,
  allowBearer: boolean,
): void {
  if (principal.kind === 'user') throw new DiscordError(401, 0, '401: Unauthorized');
  if (principal.kind === 'bearer' && !allowBearer) {
    throw new DiscordError(403, 20002, 'Only bots can use this endpoint');
  }
  if (principal.applicationId !== applicationId) {
    throw new DiscordError(403, 20012, 'You are not authorized to perform this action on this application');
  }
  if (principal.kind === 'bearer' && !hasScope(principal, ENTITLEMENTS_SCOPE)) {
    throw new DiscordError(403, 50026, `Missing required OAuth2 scope: ${ENTITLEMENTS_SCOPE}`);
  }
}

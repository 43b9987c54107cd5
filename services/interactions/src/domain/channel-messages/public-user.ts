import type { JsonObject } from '@acs/validation';

/** Fields of a user object only the user itself is shown (OAS `UserPIIResponse` less `UserResponse`). */
const PRIVATE_FIELDS = ['email', 'verified', 'locale', 'mfa_enabled', 'premium_type'] as const;

/**
 * A user as a message shows them to everyone (`author`, `mentions`): oauth's ListUsers
 * answers them whole, whatever its contract says, so the private fields are dropped here.
 */
export function publicUser(user: JsonObject): JsonObject {
  const visible = { ...user };
  for (const field of PRIVATE_FIELDS) delete visible[field];
  // `bot` is shown only when true (OAS `UserResponse`).
  if (visible.bot !== true) delete visible.bot;
  return visible;
}

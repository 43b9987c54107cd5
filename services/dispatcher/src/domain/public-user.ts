/** Fields of a user object that only the user itself is shown. */
const PRIVATE_FIELDS = ['email', 'verified', 'locale', 'mfa_enabled', 'premium_type'] as const;

/** A user with only its public fields: a webhook receiver is not the user. */
export function publicUser(user: Record<string, unknown>): Record<string, unknown> {
  const visible = { ...user };
  for (const field of PRIVATE_FIELDS) delete visible[field];
  return visible;
}

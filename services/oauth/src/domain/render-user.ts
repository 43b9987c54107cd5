import { PROVISIONAL_ACCOUNT_FLAG } from './provisional-accounts';
import type { UserRecord } from './records';

// Bots keep the legacy four-digit discriminator; migrated users show "0" (D:resources/user.mdx).
function discriminatorOf(user: UserRecord): string {
  return user.bot ? '0000' : '0';
}

/** The user's flags: PROVISIONAL_ACCOUNT for a provisional account (shown to everyone, see README). */
function flagsOf(user: UserRecord): number {
  return user.provisional ? PROVISIONAL_ACCOUNT_FLAG : 0;
}

/** A user as others see it (OAS `UserResponse`), e.g. an application's `bot` and `owner`. */
export function renderPublicUser(user: UserRecord): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    avatar: null,
    discriminator: discriminatorOf(user),
    public_flags: flagsOf(user),
    flags: flagsOf(user),
    ...(user.bot ? { bot: true } : {}),
    banner: null,
    accent_color: null,
    global_name: user.globalName,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: user.primaryGuild,
  };
}

/** A user as `GET /users/@me` shows them to themselves (OAS `UserPIIResponse`). */
export function renderUser(user: UserRecord): Record<string, unknown> {
  return {
    ...renderPublicUser(user),
    bot: user.bot,
    mfa_enabled: false,
    locale: user.locale,
    premium_type: user.premiumType,
    email: user.email,
    verified: user.email !== null,
  };
}

/**
 * `GET /users/@me` for the principal (facts §12): a bot sees itself whole; a Bearer token
 * (which has `identify`) sees `email` and `verified` only with `email`, and the real
 * `premium_type` only with `identify.premium` (else 0).
 */
export function renderCurrentUser(
  user: UserRecord,
  bearerScopes: readonly string[] | null,
): Record<string, unknown> {
  const full = renderUser(user);
  if (bearerScopes === null) return full;
  const { email, verified, ...rest } = full;
  return {
    ...rest,
    premium_type: bearerScopes.includes('identify.premium') ? user.premiumType : 0,
    ...(bearerScopes.includes('email') ? { email, verified } : {}),
  };
}

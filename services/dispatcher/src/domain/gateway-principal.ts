/**
 * The application an OAuth2 Bearer token was granted to, and the scopes it holds (a
 * Social SDK client's connection: a full account's token, or a provisional account's).
 */
export interface BearerGrant {
  applicationId: string;
  scopes: readonly string[];
}

/**
 * Who a gateway session acts for: an application's bot (Identify with its bot token), or
 * a user: their chat client (a session token, as the official client sends) or a Social
 * SDK client (`Bearer <access token>`, with the token's `grant`).
 */
export type GatewayPrincipal =
  { kind: 'bot'; applicationId: string } | { kind: 'user'; userId: string; grant?: BearerGrant };

/**
 * Whether two principals are the same bot, or the same user through the same kind of
 * token (a session token, or a Bearer token of the same application): a Resume must come
 * from the session's own.
 */
export function isSamePrincipal(a: GatewayPrincipal, b: GatewayPrincipal): boolean {
  if (a.kind === 'bot') return b.kind === 'bot' && a.applicationId === b.applicationId;
  return b.kind === 'user' && a.userId === b.userId && a.grant?.applicationId === b.grant?.applicationId;
}

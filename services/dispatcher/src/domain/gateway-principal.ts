/**
 * Who a gateway session acts for: an application's bot (Identify with its bot token), or
 * a user's chat client (Identify with a session token, as the official client does).
 */
export type GatewayPrincipal = { kind: 'bot'; applicationId: string } | { kind: 'user'; userId: string };

/** Whether two principals are the same bot or the same user (a Resume must come from the session's own). */
export function isSamePrincipal(a: GatewayPrincipal, b: GatewayPrincipal): boolean {
  if (a.kind === 'bot') return b.kind === 'bot' && a.applicationId === b.applicationId;
  return b.kind === 'user' && a.userId === b.userId;
}

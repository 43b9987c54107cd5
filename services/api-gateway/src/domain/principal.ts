/** Who is calling, as resolved from the Authorization header by oauth. */
export interface Principal {
  kind: 'bot' | 'bearer' | 'user';
  /** The bot's application, or the application a Bearer token was granted to. */
  applicationId: string;
  /** The bot user (= application id) or the user the token acts for. */
  userId: string;
  scopes: readonly string[];
  applicationFlags: number;
  /** The user's locale setting, '' for bots. */
  userLocale: string;
}

/** Whether a Bearer principal holds an OAuth2 scope (bots hold none). */
export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.includes(scope);
}

/** What the browser is sent back with after a consent. */
export interface LocationParams {
  redirectUri: string | null;
  code: string | null;
  state: string | null;
  /** Set for a guild install (the "advanced bot authorization" redirect, facts §11). */
  guildId: string | null;
  permissions: string | null;
}

/**
 * The redirect after a consent: `<redirect_uri>?code=…&state=…` (plus `guild_id` and
 * `permissions` after a guild install), URL-encoded and appended to any query the
 * registered URI already has; empty when there is no redirect URI.
 */
export function buildLocation(params: LocationParams): string {
  if (params.redirectUri === null) return '';
  const query = new URLSearchParams();
  if (params.code !== null) query.set('code', params.code);
  if (params.state !== null) query.set('state', params.state);
  if (params.guildId !== null) query.set('guild_id', params.guildId);
  if (params.permissions !== null) query.set('permissions', params.permissions);
  const text = query.toString();
  if (text === '') return params.redirectUri;
  const separator = params.redirectUri.includes('?') ? '&' : '?';
  return `${params.redirectUri}${separator}${text}`;
}

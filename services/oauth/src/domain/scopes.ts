// OAuth2 scopes (facts §11; OAS `OAuth2Scopes`).

/** Every scope the real service knows: the docs' table, the Social SDK's and the OAS's. */
export const OAUTH2_SCOPES = [
  'activities.invites.write',
  'activities.read',
  'activities.write',
  'applications.builds.read',
  'applications.builds.upload',
  'applications.commands',
  'applications.commands.permissions.update',
  'applications.commands.update',
  'applications.entitlements',
  'applications.store.update',
  'bot',
  'connections',
  'dm_channels.read',
  'email',
  'gdm.join',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'identify',
  'identify.premium',
  'messages.read',
  'openid',
  'relationships.read',
  'role_connections.write',
  'rpc',
  'rpc.activities.write',
  'rpc.notifications.read',
  'rpc.screenshare.read',
  'rpc.screenshare.write',
  'rpc.video.read',
  'rpc.video.write',
  'rpc.voice.read',
  'rpc.voice.write',
  'sdk.social_layer',
  'sdk.social_layer_presence',
  'voice',
  'webhook.incoming',
] as const;

/** One OAuth2 scope. */
export type Scope = (typeof OAUTH2_SCOPES)[number];

/** `applications.commands.update` belongs to the client-credentials grant only, never to a user's consent. */
export const AUTHORIZE_SCOPES: readonly Scope[] = OAUTH2_SCOPES.filter(
  (s) => s !== 'applications.commands.update',
);

/** The scopes that install an application (in a guild or to a user) rather than grant a token. */
export const INSTALL_SCOPES: readonly Scope[] = ['bot', 'applications.commands'];

/** Whether a string is a known scope. */
export function isScope(value: string): value is Scope {
  return (OAUTH2_SCOPES as readonly string[]).includes(value);
}

/** Whether a consent with these scopes gets an authorization code (anything beyond installing). */
export function needsAuthorizationCode(scopes: readonly Scope[]): boolean {
  return scopes.some((s) => !INSTALL_SCOPES.includes(s));
}

/** The scopes with what they imply added (`bot` implies `applications.commands`), without repeats. */
export function withImpliedScopes(scopes: readonly Scope[]): Scope[] {
  const result = [...new Set(scopes)];
  if (result.includes('bot') && !result.includes('applications.commands'))
    result.push('applications.commands');
  return result;
}

/** The union of two scope lists, in a stable order (existing first). */
export function mergeScopes(existing: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...existing, ...added])];
}

/**
 * What a client-credentials token (the owner's, facts §11) may hold: the owner's own
 * identity, and managing this application (`applications.commands.update` reaches this
 * application's commands only). Installing scopes, chat scopes and command permissions
 * (which need a consenting user who manages the guild) are not among them.
 */
export const CLIENT_CREDENTIALS_SCOPES: readonly Scope[] = [
  'identify',
  'email',
  'connections',
  'guilds',
  'applications.commands.update',
  'applications.builds.read',
  'applications.builds.upload',
  'applications.entitlements',
  'applications.store.update',
];

/** A space-separated `scope` parameter's scopes, in order and without repeats (RFC 6749 §3.3). */
export function splitScopeParam(value: string): string[] {
  return [...new Set(value.split(' ').filter((s) => s !== ''))];
}

import { GATEWAY_VERSION } from './gateway-codes';

/** What a user session's READY is built from. */
export interface UserReadySource {
  /** The user as they see themselves (`GET /users/@me`). */
  user: Record<string, unknown>;
  /** The user's guilds, as partial guilds (`GET /users/@me/guilds`' objects). */
  guilds: readonly Record<string, unknown>[];
  sessionId: string;
  resumeGatewayUrl: string;
}

/**
 * READY's `d` for a user's chat client (UD:gateway/gateway-events.mdx §Ready): the user
 * whole, their guilds, the session, and empty relationships, private channels and
 * settings (ACS models none). The guilds are the partial objects ACS renders cheaply
 * (id, name, icon, owner, permissions, features), marked available, so that no
 * GUILD_CREATE needs to follow.
 */
export function userReadyPayload(source: UserReadySource): Record<string, unknown> {
  return {
    v: GATEWAY_VERSION,
    user: source.user,
    user_settings: {},
    guilds: source.guilds.map((guild) => ({ ...guild, unavailable: false })),
    session_id: source.sessionId,
    session_type: 'normal',
    resume_gateway_url: source.resumeGatewayUrl,
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    auth: {},
    _trace: ['acs-dispatcher'],
  };
}

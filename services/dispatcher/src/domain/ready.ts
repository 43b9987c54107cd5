import { GATEWAY_VERSION } from './gateway-codes';

/** What every READY carries of its session. */
interface ReadySession {
  sessionId: string;
  resumeGatewayUrl: string;
}

/** What a READY is built from: a bot's session, or a user's (chat client or Social SDK client). */
export type ReadySource =
  | (ReadySession & {
      kind: 'bot';
      /** The bot user. */
      user: Record<string, unknown>;
      /** The guilds of the session's shard, by id: each follows in its own GUILD_CREATE. */
      guildIds: readonly string[];
      shard: readonly [number, number] | null;
      application: { id: string; flags: number };
    })
  | (ReadySession & {
      kind: 'user';
      /** The user as they see themselves (`GET /users/@me`, as their token shows it). */
      user: Record<string, unknown>;
      /** The user's guilds, as partial guilds (`GET /users/@me/guilds`' objects). */
      guilds: readonly Record<string, unknown>[];
    });

/**
 * READY's `d` (D:events/gateway-events.mdx §Ready; UD:gateway/gateway-events.mdx §Ready),
 * one builder for every session: the version, the user, the session, and empty
 * relationships, private channels and settings (ACS models none).
 * - A bot's lists its shard's guilds unavailable (a GUILD_CREATE fills each in), with
 *   `application` (id, flags) and `shard` when it identified with one.
 * - A user's lists their guilds as the partial objects ACS renders cheaply (id, name,
 *   icon, owner, permissions, features), marked available, so that no GUILD_CREATE needs
 *   to follow; it has no `application`.
 */
export function readyPayload(source: ReadySource): Record<string, unknown> {
  const guilds =
    source.kind === 'bot'
      ? source.guildIds.map((id) => ({ id, unavailable: true }))
      : source.guilds.map((guild) => ({ ...guild, unavailable: false }));
  return {
    v: GATEWAY_VERSION,
    user_settings: {},
    user: source.user,
    guilds,
    session_id: source.sessionId,
    session_type: 'normal',
    resume_gateway_url: source.resumeGatewayUrl,
    ...(source.kind === 'bot' && source.shard ? { shard: source.shard } : {}),
    ...(source.kind === 'bot' ? { application: source.application } : {}),
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    auth: {},
    _trace: ['acs-dispatcher'],
  };
}

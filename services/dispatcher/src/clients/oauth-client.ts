import { LRUCache } from 'lru-cache';
import type { oauth } from '@acs/protos';
import { DiscordError } from '@acs/discord-errors';
import { callPeer } from '@acs/service-kit';
import type { ProfilePrivacy } from '../domain/presence';

/** An application's webhook settings and signing key, as oauth keeps them. */
export interface ApplicationSettings {
  applicationId: string;
  webhookUrl: string | null;
  webhookTypes: string[];
  verifyKey: string;
  signingKeyPem: string;
  flags: number;
  botUser: Record<string, unknown>;
}

/**
 * What the dispatcher asks of oauth: applications (their webhook settings and bot), bot,
 * chat-client session and Bearer tokens, users, the guilds a bot is in. A failure oauth answers with its own error
 * rejects with that DiscordError (e.g. 404 for an application it does not know); one in
 * transport with 503 or 504.
 */
export interface OAuthClient {
  /**
   * The application's settings (cached for a few seconds: every webhook attempt needs the
   * signing key). With `notBefore`, only an answer asked of oauth at or after that time
   * does (else oauth is asked again): another replica may have changed the settings
   * within the cache's life, and forgot them only in its own cache.
   */
  settings(applicationId: string, options?: { notBefore?: Date }): Promise<ApplicationSettings>;
  /** Forgets cached settings (after the URL was changed through this replica). */
  forgetSettings(applicationId: string): void;
  /** The application a bot token belongs to, or undefined when the token is not valid. */
  resolveBotToken(token: string): Promise<string | undefined>;
  /** The user a chat-client session token belongs to, or undefined when the token is not valid. */
  resolveUserSession(token: string): Promise<string | undefined>;
  /**
   * The user, application and scopes of an OAuth2 access token, or undefined when the
   * token is unknown, revoked or expired (or acts for no user: a client-credentials token).
   */
  resolveBearer(
    token: string,
  ): Promise<{ userId: string; applicationId: string; scopes: readonly string[] } | undefined>;
  /** A user as others see it (cached for a few seconds: a burst of events names the same users). */
  user(userId: string): Promise<Record<string, unknown>>;
  /** Users as others see them (at most 1,000 ids; unknown ones are absent), by id. */
  users(userIds: readonly string[]): Promise<Map<string, Record<string, unknown>>>;
  /** A user as they see themselves (`GET /users/@me`: email, locale...), for their own READY; not cached. */
  currentUser(userId: string): Promise<Record<string, unknown>>;
  /** A user as `GET /users/@me` shows them to a Bearer token with `scopes` (e-mail only with `email`); not cached. */
  currentUserOfBearer(userId: string, scopes: readonly string[]): Promise<Record<string, unknown>>;
  /** Who may see the user's custom status (`profile_privacy`); not cached: it gates what bots see. */
  profilePrivacy(userId: string): Promise<ProfilePrivacy>;
  /** The guilds the application's bot is in. */
  botGuilds(applicationId: string): Promise<string[]>;
  /** Tells oauth the application's event webhooks were disabled for failing (its status 3). */
  disableEventWebhooks(applicationId: string): Promise<void>;
}

/** How long an application's settings (and a user) are reused before asking oauth again. */
const SETTINGS_CACHE_MS = 5_000;
/** How many applications (and users) the caches hold at most; the least recently used go first. */
const CACHE_ENTRIES = 10_000;

/** An answer in flight or settled, and when it was asked for. */
interface CachedAnswer<T> {
  value: Promise<T>;
  askedAt: number;
}

/** A cache of in-flight or settled answers: concurrent askers share one call. */
function answerCache<T extends object>(): LRUCache<string, CachedAnswer<T>> {
  return new LRUCache({ max: CACHE_ENTRIES, ttl: SETTINGS_CACHE_MS });
}

/**
 * The answer of `key` from the cache, or from `fetch` (forgotten again if it fails); with
 * `notBefore`, a cached answer asked for before that time is not used but replaced.
 */
function cached<T extends object>(
  cache: LRUCache<string, CachedAnswer<T>>,
  key: string,
  fetch: () => Promise<T>,
  notBefore?: Date,
): Promise<T> {
  const known = cache.get(key);
  if (known && (notBefore === undefined || known.askedAt >= notBefore.getTime())) return known.value;
  const askedAt = Date.now();
  const entry = { value: fetch(), askedAt };
  entry.value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  cache.set(key, entry);
  return entry.value;
}

/** The OAuthClient over oauth's gRPC client, with its settings and user caches. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  const settingsCache = answerCache<ApplicationSettings>();
  const userCache = answerCache<Record<string, unknown>>();
  const call = <Req, Res>(method: Parameters<typeof callPeer<Req, Res>>[1], request: Req): Promise<Res> =>
    callPeer(client, method, request);

  /** oauth's answer for a token of `kind`, or undefined when it knows no such token. */
  const resolveToken = async (
    kind: oauth.PrincipalKind,
    token: string,
  ): Promise<oauth.ResolveTokenResponse__Output | undefined> => {
    try {
      return await callPeer(client, client.ResolveToken, { kind, token });
    } catch (error) {
      if (error instanceof DiscordError && error.httpStatus === 401) return undefined;
      throw error;
    }
  };

  return {
    settings: (applicationId, options) =>
      cached(
        settingsCache,
        applicationId,
        async () => {
          const r = await call(client.GetEventWebhookSettings, { application_id: applicationId });
          return {
            applicationId,
            webhookUrl: r.event_webhooks_url || null,
            webhookTypes: r.event_webhooks_types,
            verifyKey: r.verify_key,
            signingKeyPem: r.signing_key_pem,
            flags: Number(r.flags),
            botUser: JSON.parse(r.bot_user_json) as Record<string, unknown>,
          };
        },
        options?.notBefore,
      ),

    forgetSettings: (applicationId) => {
      settingsCache.delete(applicationId);
    },

    async resolveBotToken(token) {
      const answer = await resolveToken('PRINCIPAL_KIND_BOT', token);
      return answer?.kind === 'PRINCIPAL_KIND_BOT' ? answer.application_id : undefined;
    },

    async resolveUserSession(token) {
      const answer = await resolveToken('PRINCIPAL_KIND_USER_SESSION', token);
      return answer?.kind === 'PRINCIPAL_KIND_USER_SESSION' ? answer.user_id : undefined;
    },

    async resolveBearer(token) {
      const answer = await resolveToken('PRINCIPAL_KIND_BEARER', token);
      if (answer?.kind !== 'PRINCIPAL_KIND_BEARER' || !answer.user_id) return undefined;
      return { userId: answer.user_id, applicationId: answer.application_id, scopes: answer.scopes };
    },

    user: (userId) =>
      cached(userCache, userId, async () => {
        const answer = await call(client.GetUser, { user_id: userId });
        return JSON.parse(answer.public_user_json) as Record<string, unknown>;
      }),

    async profilePrivacy(userId) {
      const answer = await call(client.GetUser, { user_id: userId });
      const privacy = answer.profile_privacy;
      // An oauth replica older than profile privacy answers '': everyone, its default.
      return privacy === 'friends' || privacy === 'friends_and_small_servers' ? privacy : 'everyone';
    },

    async users(userIds) {
      const found = new Map<string, Record<string, unknown>>();
      if (userIds.length === 0) return found;
      const answer = await call(client.ListUsers, { user_ids: [...userIds] });
      for (const user of JSON.parse(answer.users_json) as Record<string, unknown>[])
        found.set(String(user.id), user);
      return found;
    },

    async currentUser(userId) {
      // GetUser renders the user whole, as GET /users/@me shows a user to themselves.
      const answer = await call(client.GetUser, { user_id: userId });
      return JSON.parse(answer.user_json) as Record<string, unknown>;
    },

    async currentUserOfBearer(userId, scopes) {
      const answer = await call(client.GetCurrentUser, { user_id: userId, scopes: [...scopes], bot: false });
      return JSON.parse(answer.user_json) as Record<string, unknown>;
    },

    async botGuilds(applicationId) {
      const answer = await call(client.ListBotGuilds, { application_id: applicationId });
      return answer.guilds.map((g) => g.guild_id);
    },

    async disableEventWebhooks(applicationId) {
      await call(client.DisableEventWebhooks, { application_id: applicationId });
    },
  };
}

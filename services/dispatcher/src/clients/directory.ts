import * as grpc from '@grpc/grpc-js';
import { LRUCache } from 'lru-cache';
import type { oauth, permissions } from '@acs/protos';
import { callUnary, isServiceError } from '@acs/service-kit';

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

/** A guild object (with roles) and every channel and thread of it, as permissions renders them. */
export interface GuildSnapshot {
  guild: Record<string, unknown>;
  channels: Record<string, unknown>[];
}

/** How long an application's settings (and a user) are reused before asking oauth again. */
const SETTINGS_CACHE_MS = 5_000;
/** How many applications (and users) the caches hold at most; the least recently used go first. */
const CACHE_ENTRIES = 10_000;

/** A cache of in-flight or settled answers: concurrent askers share one call. */
function answerCache<T extends object>(): LRUCache<string, Promise<T>> {
  return new LRUCache({ max: CACHE_ENTRIES, ttl: SETTINGS_CACHE_MS });
}

/**
 * What the dispatcher asks of other services: applications and bot tokens (oauth),
 * users (oauth), guilds (permissions). Settings are cached briefly, because every
 * webhook attempt needs the signing key.
 */
export class Directory {
  private readonly settingsCache = answerCache<ApplicationSettings>();
  private readonly userCache = answerCache<Record<string, unknown>>();

  constructor(
    private readonly oauthClient: oauth.OAuthServiceClient,
    private readonly permissionsClient: permissions.PermissionsServiceClient,
  ) {}

  /** The application's settings (cached for a few seconds). */
  settings(applicationId: string): Promise<ApplicationSettings> {
    const cached = this.settingsCache.get(applicationId);
    if (cached) return cached;
    const value = callUnary(this.oauthClient, this.oauthClient.GetEventWebhookSettings, {
      application_id: applicationId,
    }).then((r) => ({
      applicationId,
      webhookUrl: r.event_webhooks_url || null,
      webhookTypes: r.event_webhooks_types,
      verifyKey: r.verify_key,
      signingKeyPem: r.signing_key_pem,
      flags: Number(r.flags),
      botUser: JSON.parse(r.bot_user_json) as Record<string, unknown>,
    }));
    value.catch(() => this.settingsCache.delete(applicationId));
    this.settingsCache.set(applicationId, value);
    return value;
  }

  /** Forgets cached settings (after the URL was changed through this replica). */
  forgetSettings(applicationId: string): void {
    this.settingsCache.delete(applicationId);
  }

  /** The application a bot token belongs to, or undefined when the token is not valid. */
  async resolveBotToken(token: string): Promise<string | undefined> {
    try {
      const answer = await callUnary(this.oauthClient, this.oauthClient.ResolveToken, {
        kind: 'PRINCIPAL_KIND_BOT',
        token,
      });
      return answer.kind === 'PRINCIPAL_KIND_BOT' ? answer.application_id : undefined;
    } catch (error) {
      if (isServiceError(error) && error.code === grpc.status.UNAUTHENTICATED) return undefined;
      throw error;
    }
  }

  /** A user as others see it (cached for a few seconds: a burst of events names the same users). */
  user(userId: string): Promise<Record<string, unknown>> {
    const cached = this.userCache.get(userId);
    if (cached) return cached;
    const value = this.fetchUser(userId);
    value.catch(() => this.userCache.delete(userId));
    this.userCache.set(userId, value);
    return value;
  }

  private async fetchUser(userId: string): Promise<Record<string, unknown>> {
    const answer = await callUnary(this.oauthClient, this.oauthClient.GetUser, { user_id: userId });
    const user = JSON.parse(answer.user_json) as Record<string, unknown>;
    // Only the public fields: a webhook receiver is not the user.
    delete user.email;
    delete user.verified;
    delete user.locale;
    delete user.mfa_enabled;
    delete user.premium_type;
    return user;
  }

  /** A guild with its channels (one call), or undefined when it does not exist. */
  async guild(guildId: string): Promise<GuildSnapshot | undefined> {
    try {
      const answer = await callUnary(this.permissionsClient, this.permissionsClient.GetGuild, {
        guild_id: guildId,
        with_channels: true,
      });
      return {
        guild: JSON.parse(answer.guild_json) as Record<string, unknown>,
        // Empty from a permissions replica older than `with_channels` (a rolling update).
        channels: answer.channels_json ? (JSON.parse(answer.channels_json) as Record<string, unknown>[]) : [],
      };
    } catch (error) {
      if (isServiceError(error) && error.code === grpc.status.NOT_FOUND) return undefined;
      throw error;
    }
  }

  /** The guilds the application's bot is in. */
  async botGuilds(applicationId: string): Promise<string[]> {
    const answer = await callUnary(this.oauthClient, this.oauthClient.ListBotGuilds, {
      application_id: applicationId,
    });
    return answer.guilds.map((g) => g.guild_id);
  }

  /** Tells oauth the application's event webhooks were disabled for failing (its status 3). */
  async disableEventWebhooks(applicationId: string): Promise<void> {
    await callUnary(this.oauthClient, this.oauthClient.DisableEventWebhooks, {
      application_id: applicationId,
    });
  }
}

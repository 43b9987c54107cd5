import * as grpc from '@grpc/grpc-js';
import { LRUCache } from 'lru-cache';
import type { permissions } from '@acs/protos';
import { callUnary, fromGrpcError, isServiceError } from '@acs/service-kit';

/** A guild object (with roles) and every channel and thread of it, as permissions renders them. */
export interface GuildSnapshot {
  guild: Record<string, unknown>;
  channels: Record<string, unknown>[];
  /** With a viewer: the ids of the channels and threads the viewer may view. */
  visibleChannelIds?: string[];
}

/**
 * What the dispatcher asks of permissions: guilds, to embed in GUILD_CREATE and webhook
 * events; a user's guilds, for their READY; whether a user may view a channel, for the
 * messages their sessions see. A failure permissions answers with its own error rejects
 * with that DiscordError; one in transport with 503 or 504.
 */
export interface PermissionsClient {
  /**
   * A guild with its channels (one call), or undefined when it does not exist; with
   * `viewerId`, also which channels that user (a bot) may view.
   */
  guild(guildId: string, viewerId?: string): Promise<GuildSnapshot | undefined>;
  /** Every guild the user is a member of, as partial guilds (`GET /users/@me/guilds`' objects), by id. */
  memberGuilds(userId: string): Promise<Record<string, unknown>[]>;
  /**
   * Whether the user may view the guild channel (VIEW_CHANNEL, with its overwrites); false
   * when the user is no member, or the guild or channel is gone. Cached for a few seconds:
   * each message of a channel asks it for every connected user.
   */
  canViewChannel(userId: string, guildId: string, channelId: string): Promise<boolean>;
}

/** VIEW_CHANNEL (D:topics/permissions.mdx). */
const VIEW_CHANNEL = 1n << 10n;
/** Guilds per ListMemberGuilds page, its maximum. */
const GUILDS_PAGE = 200;
/** How long a VIEW_CHANNEL decision is reused: a changed overwrite shows within this. */
const VIEW_DECISION_CACHE_MS = 5_000;
/** How many decisions the cache holds at most; the least recently used go first. */
const VIEW_DECISION_ENTRIES = 50_000;

/** The PermissionsClient over permissions' gRPC client, with its VIEW_CHANNEL decision cache. */
export function createPermissionsClient(client: permissions.PermissionsServiceClient): PermissionsClient {
  const views = new LRUCache<string, Promise<boolean>>({
    max: VIEW_DECISION_ENTRIES,
    ttl: VIEW_DECISION_CACHE_MS,
  });
  const call = <Req, Res>(method: Parameters<typeof callUnary<Req, Res>>[1], request: Req): Promise<Res> =>
    callUnary(client, method, request).catch((error: unknown) => {
      throw fromGrpcError(error) ?? error;
    });

  return {
    async guild(guildId, viewerId) {
      try {
        const answer = await callUnary(client, client.GetGuild, {
          guild_id: guildId,
          with_channels: true,
          viewer_id: viewerId ?? '',
        });
        return {
          ...(viewerId === undefined ? {} : { visibleChannelIds: answer.visible_channel_ids }),
          guild: JSON.parse(answer.guild_json) as Record<string, unknown>,
          // Empty from a permissions replica older than `with_channels` (a rolling update).
          channels: answer.channels_json
            ? (JSON.parse(answer.channels_json) as Record<string, unknown>[])
            : [],
        };
      } catch (error) {
        if (isServiceError(error) && error.code === grpc.status.NOT_FOUND) return undefined;
        throw fromGrpcError(error) ?? error;
      }
    },

    async memberGuilds(userId) {
      const guilds: Record<string, unknown>[] = [];
      for (let after = ''; ;) {
        const answer = await call(client.ListMemberGuilds, { user_id: userId, after, limit: GUILDS_PAGE });
        const page = JSON.parse(answer.guilds_json) as Record<string, unknown>[];
        guilds.push(...page);
        const last = page.at(-1);
        if (page.length < GUILDS_PAGE || !last) return guilds;
        after = String(last.id);
      }
    },

    canViewChannel(userId, guildId, channelId) {
      const key = `${userId}:${guildId}:${channelId}`;
      const known = views.get(key);
      if (known) return known;
      const decision = callUnary(client, client.CheckPermissions, {
        guild_id: guildId,
        user_id: userId,
        permissions: VIEW_CHANNEL.toString(),
        channel_id: channelId,
      }).then(
        (answer) => answer.allowed,
        (error: unknown) => {
          // A guild or channel deleted meanwhile: nobody views it.
          if (isServiceError(error) && error.code === grpc.status.NOT_FOUND) return false;
          views.delete(key);
          throw fromGrpcError(error) ?? error;
        },
      );
      views.set(key, decision);
      return decision;
    },
  };
}

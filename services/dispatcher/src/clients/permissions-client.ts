import type { MemberObject } from '../domain/guild-members-chunks';
import { LRUCache } from 'lru-cache';
import type { permissions } from '@acs/protos';
import { DiscordError } from '@acs/discord-errors';
import { callPeer } from '@acs/service-kit';

/** A guild object (with roles) and every channel and thread of it, as permissions renders them. */
export interface GuildSnapshot {
  guild: Record<string, unknown>;
  channels: Record<string, unknown>[];
  /** With a viewer: the ids of the channels and threads the viewer may view. */
  visibleChannelIds?: string[];
  /**
   * How many members the guild has, bots included; 0 from a permissions replica that does
   * not count them yet (a rolling update), absent from fakes.
   */
  memberCount?: number;
  /** With a viewer: its timeout's end (ISO8601), null when none. */
  viewerCommunicationDisabledUntil?: string | null;
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
  /** Every guild the user (or bot user) is a member of, with its member count. */
  memberGuildCounts(userId: string): Promise<{ guildId: string; memberCount: number }[]>;
  /** For each guild, the applications whose bots are its members (ListGuildBots, pages of 100). */
  guildBots(guildIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Those of `userIds` who hold `permissions` in the guild (CheckPermissions, one call each). */
  holdersOf(guildId: string, userIds: readonly string[], permissions: bigint): Promise<string[]>;
  /**
   * Op 4 of a member's session: records the join, move or leave (permissions checks the
   * channel and CONNECT, and announces it). Rejects with permissions' DiscordError otherwise.
   */
  updateVoiceState(state: {
    guildId: string;
    userId: string;
    channelId: string | null;
    sessionId: string;
    selfMute: boolean;
    selfDeaf: boolean;
  }): Promise<boolean>;
  /** Op 43: the status and session start of the guild's voice channels, for a member of it. */
  channelInfo(
    guildId: string,
    userId: string,
  ): Promise<{ id: string; status: string | null; voice_start_time: number | null }[]>;
  /**
   * Members of the guild (`user` with the id only), by user id: the given users (at most
   * 100) with those who are not members, or a page of up to 1,000 after a user id.
   */
  guildMembers(request: GuildMembersRequest): Promise<{ members: MemberObject[]; notFound: string[] }>;
}

/** What ListGuildMembers is asked: given users, or a page after a user id. */
export interface GuildMembersRequest {
  guildId: string;
  userIds?: string[];
  after?: string;
  /** 1-1000. */
  limit: number;
}

/** VIEW_CHANNEL (D:topics/permissions.mdx). */
const VIEW_CHANNEL = 1n << 10n;
/** Guilds per ListGuildBots call, its maximum. */
const GUILD_BOTS_PAGE = 100;
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
  const call = <Req, Res>(method: Parameters<typeof callPeer<Req, Res>>[1], request: Req): Promise<Res> =>
    callPeer(client, method, request);

  return {
    async guild(guildId, viewerId) {
      try {
        const answer = await callPeer(client, client.GetGuild, {
          guild_id: guildId,
          with_channels: true,
          viewer_id: viewerId ?? '',
        });
        return {
          ...(viewerId === undefined
            ? {}
            : {
                visibleChannelIds: answer.visible_channel_ids,
                viewerCommunicationDisabledUntil: answer.viewer_communication_disabled_until || null,
              }),
          guild: JSON.parse(answer.guild_json) as Record<string, unknown>,
          memberCount: answer.member_count,
          // Empty from a permissions replica older than `with_channels` (a rolling update).
          channels: answer.channels_json
            ? (JSON.parse(answer.channels_json) as Record<string, unknown>[])
            : [],
        };
      } catch (error) {
        if (error instanceof DiscordError && error.httpStatus === 404) return undefined;
        throw error;
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

    async memberGuildCounts(userId) {
      const guilds: { guildId: string; memberCount: number }[] = [];
      for (let after = ''; ;) {
        const answer = await call(client.ListMemberGuilds, {
          user_id: userId,
          after,
          limit: GUILDS_PAGE,
          with_counts: true,
        });
        const page = JSON.parse(answer.guilds_json) as { id: string; approximate_member_count?: number }[];
        for (const g of page) guilds.push({ guildId: g.id, memberCount: g.approximate_member_count ?? 0 });
        const last = page.at(-1);
        if (page.length < GUILDS_PAGE || !last) return guilds;
        after = last.id;
      }
    },

    async guildBots(guildIds) {
      const bots = new Map<string, string[]>();
      for (let i = 0; i < guildIds.length; i += GUILD_BOTS_PAGE) {
        const answer = await call(client.ListGuildBots, {
          guild_ids: guildIds.slice(i, i + GUILD_BOTS_PAGE),
        });
        for (const g of answer.guilds) bots.set(g.guild_id, g.application_ids);
      }
      return bots;
    },

    async holdersOf(guildId, userIds, wanted) {
      const answers = await Promise.all(
        userIds.map((userId) =>
          call<permissions.CheckPermissionsRequest, permissions.CheckPermissionsResponse__Output>(
            client.CheckPermissions,
            { guild_id: guildId, user_id: userId, permissions: wanted.toString() },
          ),
        ),
      );
      return userIds.filter((_, index) => answers[index]?.allowed === true);
    },

    async updateVoiceState(state) {
      const answer = await call(client.UpdateVoiceState, {
        guild_id: state.guildId,
        user_id: state.userId,
        channel_id: state.channelId ?? '',
        session_id: state.sessionId,
        self_mute: state.selfMute,
        self_deaf: state.selfDeaf,
      });
      return answer.changed;
    },

    async channelInfo(guildId, userId) {
      const answer = await call(client.GetChannelInfo, { guild_id: guildId, user_id: userId });
      return JSON.parse(answer.channels_json) as {
        id: string;
        status: string | null;
        voice_start_time: number | null;
      }[];
    },

    canViewChannel(userId, guildId, channelId) {
      const key = `${userId}:${guildId}:${channelId}`;
      const known = views.get(key);
      if (known) return known;
      const decision = callPeer(client, client.CheckPermissions, {
        guild_id: guildId,
        user_id: userId,
        permissions: VIEW_CHANNEL.toString(),
        channel_id: channelId,
      }).then(
        (answer) => answer.allowed,
        (error: unknown) => {
          // A guild or channel deleted meanwhile: nobody views it.
          if (error instanceof DiscordError && error.httpStatus === 404) return false;
          views.delete(key);
          throw error;
        },
      );
      views.set(key, decision);
      return decision;
    },

    async guildMembers(request) {
      const answer = await call(client.ListGuildMembers, {
        guild_id: request.guildId,
        user_ids: request.userIds ?? [],
        after: request.after ?? '',
        limit: request.limit,
        nick_prefix: '',
      });
      return { members: JSON.parse(answer.members_json) as MemberObject[], notFound: answer.not_found };
    },
  };
}

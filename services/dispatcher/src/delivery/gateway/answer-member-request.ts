import type { OAuthClient } from '../../clients/oauth-client';
import type { PermissionsClient } from '../../clients/permissions-client';
import { Intent, MAX_MEMBERS_PER_QUERY, MEMBERS_PER_CHUNK, Op } from '../../domain/gateway-codes';
import { guildCrowd, type GuildCrowd } from '../../domain/guild-create';
import { guildMembersChunks, matchesQuery, type MemberObject } from '../../domain/guild-members-chunks';
import { shardOf } from '../../domain/shard-of';
import {
  asksForAllMembers,
  asksForMemberList,
  type RequestGuildMembers,
} from '../../domain/read-request-guild-members';
import type { MemberRequestStore } from '../../store/member-request-store';

/**
 * Where a Request Guild Members' presences come from (the presence announcer, over the
 * presences the replicas store): offline members have no presence in a chunk.
 */
export interface PresenceSource {
  /** The presence objects of those of `userIds` who are not offline in the guild. */
  presencesOf(
    guildId: string,
    userIds: readonly string[],
    guildMemberCount?: number,
  ): Promise<Record<string, unknown>[]>;
}

export interface MemberRequestContext {
  oauth: OAuthClient;
  permissions: PermissionsClient;
  memberRequests: MemberRequestStore;
  presences?: PresenceSource;
}

/** The asking bot session. */
export interface MemberRequestSession {
  applicationId: string;
  intents: number;
  shard: readonly [number, number] | null;
  dispatch(t: string, d: unknown): void;
}

/**
 * Answers op 8 (D:events/gateway-events.mdx §Request Guild Members) with Guild Members
 * Chunks. Nothing is answered for a guild the bot is not in or that is not on its shard,
 * nor for the whole member list (`query` "") without the GUILD_MEMBERS intent (Discord
 * sends nothing then either: discord/discord-api-docs#5855); `presences` without
 * GUILD_PRESENCES counts as false. A second request for ALL members of a guild within
 * 30 s gets RATE_LIMITED `{opcode: 8, retry_after, meta: {guild_id, nonce}}` instead.
 */
export async function answerMemberRequest(
  context: MemberRequestContext,
  session: MemberRequestSession,
  request: RequestGuildMembers,
): Promise<void> {
  const { guildId, nonce } = request;
  if (asksForMemberList(request) && (session.intents & Intent.GUILD_MEMBERS) === 0) return;
  if (session.shard && shardOf(guildId, session.shard[1]) !== session.shard[0]) return;
  const bots = (await context.permissions.guildBots([guildId])).get(guildId) ?? [];
  if (!bots.includes(session.applicationId)) return;
  if (asksForAllMembers(request)) {
    const decision = await context.memberRequests.claim(session.applicationId, guildId);
    if (!decision.granted) {
      session.dispatch('RATE_LIMITED', {
        opcode: Op.REQUEST_GUILD_MEMBERS,
        retry_after: decision.retryAfterMs / 1000,
        meta: { guild_id: guildId, ...(nonce === null ? {} : { nonce }) },
      });
      return;
    }
  }
  const { members, notFound } = await findMembers(context, request);
  const withPresences = request.presences && (session.intents & Intent.GUILD_PRESENCES) !== 0;
  const chunks = guildMembersChunks(members, { guildId, notFound, nonce });
  for (const chunk of chunks) {
    const presences = withPresences
      ? await (context.presences?.presencesOf(
          guildId,
          chunk.members.map((m) => m.user.id),
          // The privacy rule's guild size: known when all members were asked for.
          request.query === '' && request.limit === 0 ? members.length : 0,
        ) ?? Promise.resolve([]))
      : null;
    session.dispatch('GUILD_MEMBERS_CHUNK', presences ? { ...chunk, presences } : chunk);
  }
}

/** Every member of the guild, in user id order, each with its full user. */
export async function allMembersOf(
  context: Pick<MemberRequestContext, 'oauth' | 'permissions'>,
  guildId: string,
): Promise<MemberObject[]> {
  const request = { guildId, query: '', limit: 0, presences: false, userIds: null, nonce: null };
  return (await findMembers(context, request)).members;
}

/**
 * A GUILD_CREATE's members and presences for a session with GUILD_PRESENCES (`guildCrowd`):
 * every member of the guild, and the presences of those connected.
 */
export async function crowdOf(
  context: Pick<MemberRequestContext, 'oauth' | 'permissions'> & { presences: PresenceSource },
  guildId: string,
  botUserId: string,
  largeThreshold: number,
): Promise<GuildCrowd> {
  const members = await allMembersOf(context, guildId);
  const ids = members.map((m) => m.user.id);
  const present = await context.presences.presencesOf(guildId, ids, members.length);
  return guildCrowd(members, present, botUserId, largeThreshold);
}

/** The members a request names, each with its full user, and (for `user_ids`) those not found. */
async function findMembers(
  context: Pick<MemberRequestContext, 'oauth' | 'permissions'>,
  request: RequestGuildMembers,
): Promise<{ members: MemberObject[]; notFound: string[] | null }> {
  const { permissions } = context;
  if (request.userIds) {
    const found = await permissions.guildMembers({
      guildId: request.guildId,
      userIds: request.userIds,
      limit: MAX_MEMBERS_PER_QUERY,
    });
    return { members: await withUsers(context, found.members), notFound: found.notFound };
  }
  const query = request.query ?? '';
  // A prefix returns at most 100 members; "" with a limit that many, with 0 all of them.
  const wanted =
    query !== '' ? Math.min(request.limit || MAX_MEMBERS_PER_QUERY, MAX_MEMBERS_PER_QUERY) : request.limit;
  const members: MemberObject[] = [];
  for (let after: string | undefined; ;) {
    const page = await permissions.guildMembers({
      guildId: request.guildId,
      after,
      limit: MEMBERS_PER_CHUNK,
    });
    const users = await withUsers(context, page.members);
    for (const member of users) {
      if (query === '' || matchesQuery(member, query)) members.push(member);
      if (wanted !== 0 && members.length >= wanted) return { members, notFound: null };
    }
    const last = page.members.at(-1);
    if (page.members.length < MEMBERS_PER_CHUNK || !last) return { members, notFound: null };
    after = last.user.id;
  }
}

/** The members with their `user` as others see it (`{id}` alone for a user oauth no longer knows). */
async function withUsers(
  context: Pick<MemberRequestContext, 'oauth'>,
  members: MemberObject[],
): Promise<MemberObject[]> {
  const users = await context.oauth.users(members.map((m) => m.user.id));
  return members.map((m) => ({ ...m, user: (users.get(m.user.id) as { id: string } | undefined) ?? m.user }));
}

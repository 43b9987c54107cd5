import type { Member, Overwrite, Role } from '../domain/guild-model';
import type { GuildPlace, PlaceChannel } from '../domain/invocation/guild-place';
import type { Pool } from 'pg';
import { Prisma } from '../generated/prisma/client';

/** An overwrite as the statement aggregates it: bit sets as text, so that JSON keeps them exact. */
interface OverwriteRow {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

/** The one row of `loadGuildPlace`: the guild, with its roles, members and channels as JSON. */
interface PlaceRow {
  /** bigint columns: pg answers them as text. */
  id: string;
  name: string;
  owner_id: string;
  preferred_locale: string;
  attachment_size_limit: string | null;
  roles: { id: string; name: string; permissions: string; position: number; bot_id: string | null }[];
  members: {
    user_id: string;
    nick: string | null;
    joined_at: number;
    communication_disabled_until: number | null;
    role_ids: string[];
  }[];
  /** The database's clock, which members' timeouts are weighed against (epoch milliseconds). */
  now: number;
  channels: {
    id: string;
    type: number;
    name: string;
    parent_id: string | null;
    position: number;
    created_at: number;
    overwrites: OverwriteRow[];
    parent_overwrites: OverwriteRow[];
  }[];
}

// One overwrite list as JSON text-safe objects, for the channel whose id is `channelColumn`.
const overwritesOf = (channelColumn: Prisma.Sql) => Prisma.sql`
  COALESCE((SELECT json_agg(json_build_object('id', o.target_id::text, 'type', o.type,
                                              'allow', o.allow::text, 'deny', o.deny::text)
                            ORDER BY o.target_id)
              FROM "permissions"."permission_overwrite" o WHERE o.channel_id = ${channelColumn}), '[]'::json)`;

function toOverwrite(row: OverwriteRow): Overwrite {
  return { id: row.id, type: row.type === 1 ? 1 : 0, allow: BigInt(row.allow), deny: BigInt(row.deny) };
}

/** Reads the part of a guild an interaction is invoked in (`GuildPlace`). */
export class GuildPlaceStore {
  /**
   * `db` is the service's pg pool, not the Prisma client: on the invocation path Prisma's
   * raw query cost more CPU than the statement (its engine and result mapping showed in
   * the profile of `bench/interactions-bench.js`, issue 27); the statement is still built
   * with `Prisma.sql` and run as its `text` and `values`.
   */
  constructor(private readonly db: Pick<Pool, 'query'>) {}

  /**
   * The guild with every role, its members among `userIds` (with their roles) and its
   * channels among `channelIds` (with their overwrites and their parent's), in one
   * statement: the invocation path has a tight latency budget, and the generated client
   * would take a round trip per relation. Channels of other guilds are not read. Null for
   * an unknown guild. Timestamps travel as epoch milliseconds (columns hold UTC).
   */
  async loadGuildPlace(
    guildId: string,
    userIds: readonly string[],
    channelIds: readonly string[],
  ): Promise<GuildPlace | null> {
    const users = [...new Set(userIds)].map(BigInt);
    const channels = [...new Set(channelIds)].map(BigInt);
    const statement = Prisma.sql`
      SELECT g.id, g.name, g.owner_id, g.preferred_locale, g.attachment_size_limit::text,
             COALESCE((SELECT json_agg(json_build_object('id', r.id::text, 'name', r.name,
                                                         'permissions', r.permissions::text,
                                                         'position', r.position, 'bot_id', r.bot_id::text))
                         FROM "permissions"."role" r WHERE r.guild_id = g.id), '[]'::json) AS roles,
             COALESCE((SELECT json_agg(json_build_object(
                                'user_id', m.user_id::text, 'nick', m.nick,
                                'joined_at', round(extract(epoch FROM m.joined_at) * 1000)::bigint,
                                'communication_disabled_until',
                                round(extract(epoch FROM m.communication_disabled_until) * 1000)::bigint,
                                'role_ids', ARRAY(SELECT mr.role_id::text FROM "permissions"."member_role" mr
                                                   WHERE mr.guild_id = m.guild_id AND mr.user_id = m.user_id
                                                   ORDER BY mr.role_id)))
                         FROM "permissions"."member" m
                        WHERE m.guild_id = g.id AND m.user_id = ANY(${users}::bigint[])), '[]'::json) AS members,
             COALESCE((SELECT json_agg(json_build_object(
                                'id', c.id::text, 'type', c.type, 'name', c.name,
                                'parent_id', c.parent_id::text, 'position', c.position,
                                'created_at', round(extract(epoch FROM c.created_at) * 1000)::bigint,
                                'overwrites', ${overwritesOf(Prisma.sql`c.id`)},
                                'parent_overwrites', ${overwritesOf(Prisma.sql`c.parent_id`)}))
                         FROM "permissions"."channel" c
                        WHERE c.guild_id = g.id AND c.id = ANY(${channels}::bigint[])), '[]'::json) AS channels,
             round(extract(epoch FROM now()) * 1000)::float8 AS now
        FROM "permissions"."guild" g
       WHERE g.id = ${BigInt(guildId)}`;
    const { rows } = await this.db.query<PlaceRow>(statement.text, statement.values);
    const row = rows[0];
    if (!row) return null;
    const id = row.id.toString();
    const roles = new Map<string, Role>(
      row.roles.map((r) => [
        r.id,
        {
          id: r.id,
          guildId: id,
          name: r.name,
          permissions: BigInt(r.permissions),
          position: r.position,
          botId: r.bot_id,
        },
      ]),
    );
    const members = new Map<string, Member>(
      row.members.map((m) => [
        m.user_id,
        {
          guildId: id,
          userId: m.user_id,
          nick: m.nick,
          roleIds: m.role_ids,
          joinedAt: new Date(m.joined_at),
          communicationDisabledUntil:
            m.communication_disabled_until === null ? null : new Date(m.communication_disabled_until),
        },
      ]),
    );
    const places = new Map<string, PlaceChannel>(
      row.channels.map((c) => [
        c.id,
        {
          channel: {
            id: c.id,
            guildId: id,
            type: c.type,
            name: c.name,
            parentId: c.parent_id,
            position: c.position,
            overwrites: c.overwrites.map(toOverwrite),
            createdAt: new Date(c.created_at),
          },
          parentOverwrites: c.parent_overwrites.map(toOverwrite),
        },
      ]),
    );
    return {
      guild: {
        id,
        name: row.name,
        ownerId: row.owner_id.toString(),
        preferredLocale: row.preferred_locale,
        attachmentSizeLimit: row.attachment_size_limit === null ? null : Number(row.attachment_size_limit),
      },
      roles,
      members,
      channels: places,
      now: new Date(row.now),
    };
  }
}

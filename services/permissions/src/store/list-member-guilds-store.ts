import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** One guild of a listing, with what its permissions are computed from. */
export interface MemberGuildRow {
  id: string;
  name: string;
  ownerId: string;
  everyonePermissions: bigint;
  /** The permissions of the user's roles there (none when not a member). */
  rolePermissions: bigint[];
  memberCount: number | null;
}

/** Which guilds to list, and the page. */
export interface MemberGuildsQuery {
  userId: string;
  /** null: the user's memberships; else these guilds (membership not required). */
  guildIds: string[] | null;
  before: string | null;
  after: string | null;
  limit: number;
  withCounts: boolean;
}

interface Row {
  id: bigint;
  name: string;
  owner_id: bigint;
  everyone: bigint | null;
  roles: string[];
  member_count: bigint | null;
}

/** Reads a user's guilds (or given guilds) with the inputs of their permissions, one page at a time. */
export class ListMemberGuildsStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * One page, by guild id ascending; `before` alone takes the page just before it. One
   * query: the guild, its @everyone role, the user's roles and, when asked, the member count.
   */
  async listMemberGuilds(query: MemberGuildsQuery): Promise<MemberGuildRow[]> {
    const user = BigInt(query.userId);
    const which =
      query.guildIds === null
        ? Prisma.sql`g.id IN (SELECT m.guild_id FROM "permissions"."member" m WHERE m.user_id = ${user})`
        : Prisma.sql`g.id = ANY(${query.guildIds.map((id) => BigInt(id))}::bigint[])`;
    const after = query.after === null ? Prisma.empty : Prisma.sql`AND g.id > ${BigInt(query.after)}`;
    const before = query.before === null ? Prisma.empty : Prisma.sql`AND g.id < ${BigInt(query.before)}`;
    // `before` without `after` pages backwards: the guilds just before it, then ascending again.
    const descending = query.before !== null && query.after === null;
    const order = descending ? Prisma.sql`ORDER BY g.id DESC` : Prisma.sql`ORDER BY g.id ASC`;
    const count = query.withCounts
      ? Prisma.sql`(SELECT count(*) FROM "permissions"."member" c WHERE c.guild_id = g.id)`
      : Prisma.sql`NULL::bigint`;
    const rows = await this.prisma.$queryRaw<Row[]>(Prisma.sql`
      SELECT g.id, g.name, g.owner_id,
             (SELECT r.permissions FROM "permissions"."role" r WHERE r.id = g.id) AS everyone,
             ARRAY(SELECT r.permissions::text FROM "permissions"."member_role" mr
                     JOIN "permissions"."role" r ON r.id = mr.role_id
                    WHERE mr.guild_id = g.id AND mr.user_id = ${user}) AS roles,
             ${count} AS member_count
        FROM "permissions"."guild" g
       WHERE ${which} ${after} ${before}
       ${order}
       LIMIT ${query.limit}`);
    if (descending) rows.reverse();
    return rows.map((r) => ({
      id: r.id.toString(),
      name: r.name,
      ownerId: r.owner_id.toString(),
      everyonePermissions: r.everyone ?? 0n,
      rolePermissions: r.roles.map((p) => BigInt(p)),
      memberCount: r.member_count === null ? null : Number(r.member_count),
    }));
  }
}

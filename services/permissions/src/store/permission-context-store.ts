import type { PermissionContext } from '../domain/check-permissions';
import type { Overwrite } from '../domain/guild-model';
import { UnknownChannelError, UnknownGuildError } from '../domain/permissions-errors';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import type { SqlClient } from './select-channels';

/** An overwrite as the query aggregates it: bit sets as text, so that JSON keeps them exact. */
interface OverwriteRow {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

interface ContextRow {
  owner_id: bigint;
  everyone_permissions: bigint | null;
  is_member: boolean;
  communication_disabled_until: Date | null;
  /** The database's clock, which the member's timeout is weighed against. */
  now: Date;
  roles: { id: string; permissions: string }[];
  channel_found: boolean;
  channel_type: number | null;
  parent_id: bigint | null;
  overwrites: OverwriteRow[];
  parent_overwrites: OverwriteRow[];
}

function toOverwrite(row: OverwriteRow): Overwrite {
  return { id: row.id, type: row.type === 1 ? 1 : 0, allow: BigInt(row.allow), deny: BigInt(row.deny) };
}

/** Reads what a permission decision needs. */
export class PermissionContextStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Loads the guild's owner and @everyone permissions, the user's roles and, when a channel
   * is named, its overwrites and its parent's (for threads), in one query: this is the
   * read behind every permission check, and the generated client would take a round trip
   * per relation. 404 10004 for an unknown guild, 10003 for a channel not in the guild.
   */
  async loadPermissionContext(
    guildId: string,
    userId: string,
    channelId?: string,
    client: SqlClient = this.prisma,
  ): Promise<PermissionContext> {
    const guild = BigInt(guildId);
    const user = BigInt(userId);
    const channel = channelId === undefined ? null : BigInt(channelId);
    const rows = await client.$queryRaw<ContextRow[]>(Prisma.sql`
      SELECT g.owner_id,
             (SELECT r.permissions FROM "permissions"."role" r WHERE r.id = g.id) AS everyone_permissions,
             m.user_id IS NOT NULL AS is_member,
             m.communication_disabled_until,
             now() AS now,
             COALESCE((SELECT json_agg(json_build_object('id', mr.role_id::text, 'permissions', r.permissions::text))
                         FROM "permissions"."member_role" mr
                         JOIN "permissions"."role" r ON r.id = mr.role_id
                        WHERE mr.guild_id = g.id AND mr.user_id = ${user}), '[]'::json) AS roles,
             c.id IS NOT NULL AS channel_found,
             c.type AS channel_type,
             c.parent_id,
             COALESCE((SELECT json_agg(json_build_object('id', o.target_id::text, 'type', o.type,
                                                         'allow', o.allow::text, 'deny', o.deny::text))
                         FROM "permissions"."permission_overwrite" o WHERE o.channel_id = c.id), '[]'::json) AS overwrites,
             COALESCE((SELECT json_agg(json_build_object('id', o.target_id::text, 'type', o.type,
                                                         'allow', o.allow::text, 'deny', o.deny::text))
                         FROM "permissions"."permission_overwrite" o WHERE o.channel_id = c.parent_id), '[]'::json)
               AS parent_overwrites
        FROM "permissions"."guild" g
        LEFT JOIN "permissions"."member" m ON m.guild_id = g.id AND m.user_id = ${user}
        LEFT JOIN "permissions"."channel" c ON c.id = ${channel}::bigint AND c.guild_id = g.id
       WHERE g.id = ${guild}`);
    const row = rows[0];
    if (!row) throw new UnknownGuildError();
    if (channelId !== undefined && !row.channel_found) throw new UnknownChannelError();
    const context: PermissionContext = {
      guildId,
      ownerId: row.owner_id.toString(),
      everyonePermissions: row.everyone_permissions ?? 0n,
      member: row.is_member
        ? {
            userId,
            roleIds: row.roles.map((r) => r.id),
            rolePermissions: row.roles.map((r) => BigInt(r.permissions)),
            communicationDisabledUntil: row.communication_disabled_until,
          }
        : null,
      now: row.now,
    };
    if (row.channel_found && row.channel_type !== null) {
      context.channel = {
        type: row.channel_type,
        overwrites: row.overwrites.map(toOverwrite),
        parent: row.parent_id === null ? null : { overwrites: row.parent_overwrites.map(toOverwrite) },
        id: channelId,
        parentId: row.parent_id === null ? null : row.parent_id.toString(),
      };
    }
    return context;
  }
}

import type {
  CommandPermission,
  GuildCommandPermissions,
} from '../domain/command-permissions/command-permission-model';
import { THREAD_PARENT_TYPES } from '../domain/channel-types';
import type { Overwrite } from '../domain/guild-model';
import { UnknownGuildError } from '../domain/permissions-errors';
import { Prisma } from '../generated/prisma/client';
import type { SqlClient } from './select-channels';

// The reads of command permissions are single SQL statements: they sit on the picker's and
// invocations' path.

/** A stored entry with what it was checked against in command-registry. */
export interface StoredCommandPermissions extends GuildCommandPermissions {
  /** The command's name when written; null for the app-level entry. */
  commandName: string | null;
  commandVersion: string;
}

interface EntryRow {
  guild_id: string;
  command_id: string;
  application_id: string;
  command_name: string | null;
  command_version: string;
  permissions: CommandPermission[];
}

/** Roles' positions and channels' overwrites, as `checkPermissionEditor` takes them. */
export interface EditTargets {
  roles: Map<string, { position: number }>;
  channels: Map<string, { type: number; overwrites: Overwrite[] }>;
}

interface OverwriteRow {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

const THREAD_TYPES = [...THREAD_PARENT_TYPES.keys()];
const ENTRY_COLUMNS = Prisma.sql`guild_id::text, command_id::text, application_id::text, command_name,
  command_version::text, permissions`;

function toStored(row: EntryRow): StoredCommandPermissions {
  return {
    id: row.command_id,
    applicationId: row.application_id,
    guildId: row.guild_id,
    permissions: row.permissions,
    commandName: row.command_name,
    commandVersion: row.command_version,
  };
}

/**
 * What the editor check needs to know of roles and channels (`checkPermissionEditor`):
 * the positions of the given roles and the overwrites of the given channels (threads
 * excluded) of the guild, in one statement; ids not in the guild are absent.
 */
export async function loadEditTargets(
  db: SqlClient,
  guildId: string,
  roleIds: readonly string[],
  channelIds: readonly string[],
): Promise<EditTargets> {
  const rows = await db.$queryRaw<
    { kind: string; id: string; position: number; type: number; overwrites: OverwriteRow[] }[]
  >(Prisma.sql`
      SELECT 'role' AS kind, r.id::text, r.position, 0 AS type, '[]'::json AS overwrites
        FROM "permissions"."role" r
       WHERE r.guild_id = ${BigInt(guildId)} AND r.id = ANY(${roleIds.map(BigInt)}::bigint[])
      UNION ALL
      SELECT 'channel', c.id::text, c.position, c.type,
             COALESCE((SELECT json_agg(json_build_object('id', o.target_id::text, 'type', o.type,
                                                         'allow', o.allow::text, 'deny', o.deny::text))
                         FROM "permissions"."permission_overwrite" o WHERE o.channel_id = c.id), '[]'::json)
        FROM "permissions"."channel" c
       WHERE c.guild_id = ${BigInt(guildId)} AND c.id = ANY(${channelIds.map(BigInt)}::bigint[])
         AND c.type <> ALL(${THREAD_TYPES}::int[])`);
  const targets: EditTargets = { roles: new Map(), channels: new Map() };
  for (const row of rows) {
    if (row.kind === 'role') targets.roles.set(row.id, { position: row.position });
    else {
      const overwrites = row.overwrites.map((o) => ({
        id: o.id,
        type: o.type === 1 ? (1 as const) : (0 as const),
        allow: BigInt(o.allow),
        deny: BigInt(o.deny),
      }));
      targets.channels.set(row.id, { type: row.type, overwrites });
    }
  }
  return targets;
}

/** The guild's entries matching `where`; 10004 for an unknown guild. */
async function readEntries(
  db: SqlClient,
  guildId: string,
  where: Prisma.Sql,
): Promise<StoredCommandPermissions[]> {
  // One statement: the guild's existence and its rows (a row of nulls when it has none).
  const rows = await db.$queryRaw<(EntryRow & { found: boolean })[]>(Prisma.sql`
      SELECT true AS found, e.* FROM "permissions"."guild" g
        LEFT JOIN LATERAL (SELECT ${ENTRY_COLUMNS} FROM "permissions"."command_permissions"
                            WHERE guild_id = g.id AND ${where}) e ON true
       WHERE g.id = ${BigInt(guildId)}
       ORDER BY e.command_id`);
  if (rows.length === 0) throw new UnknownGuildError();
  return rows.filter((r) => r.command_id !== null).map(toStored);
}

/** The app's entries in a guild (commands and app level); 10004 for an unknown guild. */
export function readCommandPermissionsOfApplication(
  db: SqlClient,
  guildId: string,
  applicationId: string,
): Promise<StoredCommandPermissions[]> {
  return readEntries(db, guildId, Prisma.sql`application_id = ${BigInt(applicationId)}`);
}

/** The entries of the given command or application ids in a guild; 10004 for an unknown guild. */
export function readCommandPermissionsByIds(
  db: SqlClient,
  guildId: string,
  ids: readonly string[],
): Promise<StoredCommandPermissions[]> {
  return readEntries(db, guildId, Prisma.sql`command_id = ANY(${ids.map(BigInt)}::bigint[])`);
}

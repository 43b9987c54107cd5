import { checkPermissionTargets } from '../domain/command-permissions/check-permission-targets';
import {
  CommandPermissionType,
  renderCommandPermissions,
  type CommandPermission,
  type GuildCommandPermissions,
} from '../domain/command-permissions/command-permission-model';
import { THREAD_PARENT_TYPES } from '../domain/channel-types';
import type { Overwrite } from '../domain/guild-model';
import { UnknownGuildError } from '../domain/permissions-errors';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { writeOutboxEvent } from './write-outbox-event';

/** A stored entry with what it was checked against in command-registry. */
export interface StoredCommandPermissions extends GuildCommandPermissions {
  /** The command's name when written; null for the app-level entry. */
  commandName: string | null;
  commandVersion: string;
}

/** What a PUT writes. */
export interface ReplaceCommandPermissionsInput {
  guildId: string;
  applicationId: string;
  /** A command id, or the application id for the app-level entry. */
  commandId: string;
  /** The command's current name and version (null / '0' for the app-level entry). */
  commandName: string | null;
  commandVersion: string;
  permissions: CommandPermission[];
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
 * Application command permissions: one row per (guild, command or app) holding the
 * overwrites as JSON, replaced whole by each PUT. Reads are single raw queries (they sit
 * on the picker's and invocations' path); the PUT is one transaction with its event.
 */
export class CommandPermissionsStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The app's entries in a guild (commands and app level); 10004 for an unknown guild. */
  async listForApplication(guildId: string, applicationId: string): Promise<StoredCommandPermissions[]> {
    return this.read(guildId, Prisma.sql`application_id = ${BigInt(applicationId)}`);
  }

  /** The entries of the given command or application ids in a guild; 10004 for an unknown guild. */
  async listByIds(guildId: string, ids: readonly string[]): Promise<StoredCommandPermissions[]> {
    return this.read(guildId, Prisma.sql`command_id = ANY(${ids.map(BigInt)}::bigint[])`);
  }

  /**
   * Replaces the overwrites of a command (or the app level) in a guild, in one transaction
   * with its APPLICATION_COMMAND_PERMISSIONS_UPDATE event. Every target must exist in the
   * guild (50035 at `permissions.<index>.id`). An empty list removes the entry.
   */
  async replace(input: ReplaceCommandPermissionsInput): Promise<GuildCommandPermissions> {
    const guild = BigInt(input.guildId);
    const entry: GuildCommandPermissions = {
      id: input.commandId,
      applicationId: input.applicationId,
      guildId: input.guildId,
      permissions: input.permissions,
    };
    const idsOf = (type: CommandPermissionType) =>
      input.permissions.filter((p) => p.type === type).map((p) => BigInt(p.id));
    return this.prisma.$transaction(async (tx) => {
      const [roles, members, channels] = await Promise.all([
        tx.role.findMany({
          where: { guildId: guild, id: { in: idsOf(CommandPermissionType.ROLE) } },
          select: { id: true },
        }),
        tx.member.findMany({
          where: { guildId: guild, userId: { in: idsOf(CommandPermissionType.USER) } },
          select: { userId: true },
        }),
        tx.channel.findMany({
          where: {
            guildId: guild,
            id: { in: idsOf(CommandPermissionType.CHANNEL) },
            type: { notIn: THREAD_TYPES },
          },
          select: { id: true },
        }),
      ]);
      checkPermissionTargets(input.permissions, {
        guildId: input.guildId,
        roleIds: new Set(roles.map((r) => r.id.toString())),
        memberIds: new Set(members.map((m) => m.userId.toString())),
        channelIds: new Set(channels.map((c) => c.id.toString())),
      });

      const key = { guildId_commandId: { guildId: guild, commandId: BigInt(input.commandId) } };
      if (input.permissions.length === 0) {
        await tx.commandPermissions.deleteMany({ where: key.guildId_commandId });
      } else {
        const data = {
          applicationId: BigInt(input.applicationId),
          commandName: input.commandName,
          commandVersion: BigInt(input.commandVersion),
          permissions: input.permissions as unknown as Prisma.InputJsonValue,
        };
        await tx.commandPermissions.upsert({
          where: key,
          create: { guildId: guild, commandId: BigInt(input.commandId), ...data },
          update: data,
        });
      }
      await writeOutboxEvent(
        tx,
        'permissions.application_command_permissions.updated',
        renderCommandPermissions(entry),
      );
      return entry;
    });
  }

  /**
   * Deletes a command's overwrites in every guild that were checked against a version
   * older than `beforeVersion` (all of them when it is undefined): what a rename or a
   * delete of the command means. Idempotent; returns the number of entries removed.
   */
  async deleteForCommand(commandId: string, beforeVersion?: string): Promise<number> {
    const { count } = await this.prisma.commandPermissions.deleteMany({
      where: {
        commandId: BigInt(commandId),
        commandName: { not: null },
        ...(beforeVersion === undefined ? {} : { commandVersion: { lt: BigInt(beforeVersion) } }),
      },
    });
    return count;
  }

  /**
   * What the editor check needs to know of roles and channels (`checkPermissionEditor`):
   * the positions of the given roles and the overwrites of the given channels (threads
   * excluded) of the guild, in one statement; ids not in the guild are absent.
   */
  async loadEditTargets(
    guildId: string,
    roleIds: readonly string[],
    channelIds: readonly string[],
  ): Promise<EditTargets> {
    const rows = await this.prisma.$queryRaw<
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

  private async read(guildId: string, where: Prisma.Sql): Promise<StoredCommandPermissions[]> {
    // One statement: the guild's existence and its rows (a row of nulls when it has none).
    const rows = await this.prisma.$queryRaw<(EntryRow & { found: boolean })[]>(Prisma.sql`
      SELECT true AS found, e.* FROM "permissions"."guild" g
        LEFT JOIN LATERAL (SELECT ${ENTRY_COLUMNS} FROM "permissions"."command_permissions"
                            WHERE guild_id = g.id AND ${where}) e ON true
       WHERE g.id = ${BigInt(guildId)}
       ORDER BY e.command_id`);
    if (rows.length === 0) throw new UnknownGuildError();
    return rows.filter((r) => r.command_id !== null).map(toStored);
  }
}

import { checkPermissionTargets } from '../domain/command-permissions/check-permission-targets';
import {
  CommandPermissionType,
  renderCommandPermissions,
  type CommandPermission,
  type GuildCommandPermissions,
} from '../domain/command-permissions/command-permission-model';
import { THREAD_PARENT_TYPES } from '../domain/channel-types';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import {
  loadEditTargets,
  readCommandPermissionsByIds,
  readCommandPermissionsOfApplication,
  type EditTargets,
  type StoredCommandPermissions,
} from './read-command-permissions';
import { writeOutboxEvent } from './write-outbox-event';

export type { EditTargets, StoredCommandPermissions } from './read-command-permissions';

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

const THREAD_TYPES = [...THREAD_PARENT_TYPES.keys()];

/**
 * Application command permissions: one row per (guild, command or app) holding the
 * overwrites as JSON, replaced whole by each PUT. Reads are single raw queries (they sit
 * on the picker's and invocations' path); the PUT is one transaction with its event.
 */
export class CommandPermissionsStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The app's entries in a guild (commands and app level); 10004 for an unknown guild. */
  async listForApplication(guildId: string, applicationId: string): Promise<StoredCommandPermissions[]> {
    return readCommandPermissionsOfApplication(this.prisma, guildId, applicationId);
  }

  /** The entries of the given command or application ids in a guild; 10004 for an unknown guild. */
  async listByIds(guildId: string, ids: readonly string[]): Promise<StoredCommandPermissions[]> {
    return readCommandPermissionsByIds(this.prisma, guildId, ids);
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
      await writeOutboxEvent(tx, 'application_command_permissions.updated', renderCommandPermissions(entry));
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
  loadEditTargets(
    guildId: string,
    roleIds: readonly string[],
    channelIds: readonly string[],
  ): Promise<EditTargets> {
    return loadEditTargets(this.prisma, guildId, roleIds, channelIds);
  }
}

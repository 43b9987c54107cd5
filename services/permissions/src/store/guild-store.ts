import type { SnowflakeGenerator } from '@acs/snowflake';
import type { Guild, Role } from '../domain/guild-model';
import { DEFAULT_EVERYONE_PERMISSIONS, MAX_ROLES_PER_GUILD } from '../domain/limits';
import { MaxRolesError, UnknownGuildError, UnknownRoleError } from '../domain/permissions-errors';
import type { CreateGuildInput } from '../domain/validate-create-guild';
import type { UpdateGuildInput } from '../domain/validate-update-guild';
import { EVERYONE_ROLE_NAME, type CreateRoleInput, type UpdateRoleInput } from '../domain/validate-role-body';
import type { PrismaClient } from '../generated/prisma/client';
import { roleEventData } from '../domain/render/render-guild-events';
import { writeOutboxEvent } from './write-outbox-event';
import { lockGuild } from './lock-guild';
import { toGuild, toRole } from './to-domain';

/** A guild with all of its roles. */
export interface GuildWithRoles {
  guild: Guild;
  roles: Role[];
}

/** Position a role gets when the request names none: just above @everyone, as on the real service. */
export const DEFAULT_ROLE_POSITION = 1;

/** Guilds and their roles. */
export class GuildStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly snowflakes: SnowflakeGenerator,
  ) {}

  /** Creates a guild with its @everyone role (id = guild id) and its owner as first member. */
  async createGuild(input: CreateGuildInput): Promise<GuildWithRoles> {
    const id = BigInt(this.snowflakes.next());
    const row = await this.prisma.guild.create({
      data: {
        id,
        name: input.name,
        ownerId: BigInt(input.ownerId),
        ...(input.preferredLocale === undefined ? {} : { preferredLocale: input.preferredLocale }),
        roles: {
          create: [{ id, name: EVERYONE_ROLE_NAME, permissions: DEFAULT_EVERYONE_PERMISSIONS, position: 0 }],
        },
        members: { create: [{ userId: BigInt(input.ownerId) }] },
      },
      include: { roles: true },
    });
    return { guild: toGuild(row), roles: row.roles.map(toRole) };
  }

  /** A guild with its roles; 404 10004 when there is none. */
  async getGuild(guildId: string): Promise<GuildWithRoles> {
    const row = await this.prisma.guild.findUnique({
      where: { id: BigInt(guildId) },
      include: { roles: true },
    });
    if (!row) throw new UnknownGuildError();
    return { guild: toGuild(row), roles: row.roles.map(toRole) };
  }

  /** How many members the guild has, bots included (0 for an unknown guild). */
  countMembers(guildId: string): Promise<number> {
    return this.prisma.member.count({ where: { guildId: BigInt(guildId) } });
  }

  /**
   * Deletes a guild with its roles, members, channels, overwrites and voice states (their
   * rows cascade) and its command permissions, the guild locked first; 404 10004 for an
   * unknown guild.
   */
  async deleteGuild(guildId: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, guildId))) throw new UnknownGuildError();
      await tx.commandPermissions.deleteMany({ where: { guildId: BigInt(guildId) } });
      await tx.guild.delete({ where: { id: BigInt(guildId) } });
    });
  }

  /** Changes a guild's fields; 404 10004 for an unknown guild. */
  async updateGuild(guildId: string, input: UpdateGuildInput): Promise<GuildWithRoles> {
    const [row] = await this.prisma.guild.updateManyAndReturn({
      where: { id: BigInt(guildId) },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.attachmentSizeLimit !== undefined
          ? {
              attachmentSizeLimit:
                input.attachmentSizeLimit === null ? null : BigInt(input.attachmentSizeLimit),
            }
          : {}),
      },
    });
    if (!row) throw new UnknownGuildError();
    return this.getGuild(guildId);
  }

  /** Adds a role, writing `role.created`; 404 10004 for an unknown guild, 400 30005 past 250 roles. */
  async createRole(guildId: string, input: CreateRoleInput): Promise<Role> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, guildId))) throw new UnknownGuildError();
      const count = await tx.role.count({ where: { guildId: BigInt(guildId) } });
      if (count >= MAX_ROLES_PER_GUILD) throw new MaxRolesError();
      const row = await tx.role.create({
        data: {
          id: BigInt(this.snowflakes.next()),
          guildId: BigInt(guildId),
          name: input.name,
          permissions: input.permissions,
          position: input.position ?? DEFAULT_ROLE_POSITION,
        },
      });
      const role = toRole(row);
      await writeOutboxEvent(tx, 'role.created', roleEventData(role));
      return role;
    });
  }

  /** Changes a role's fields, writing `role.updated`; 404 10004 for an unknown guild, 10011 for a role not in it. */
  async updateRole(guildId: string, roleId: string, input: UpdateRoleInput): Promise<Role> {
    const where = { id: BigInt(roleId), guildId: BigInt(guildId) };
    const role = await this.prisma.$transaction(async (tx) => {
      const [row] = await tx.role.updateManyAndReturn({ where, data: input });
      if (!row) return null;
      const updated = toRole(row);
      await writeOutboxEvent(tx, 'role.updated', roleEventData(updated));
      return updated;
    });
    if (role) return role;
    const guild = await this.prisma.guild.findUnique({
      where: { id: BigInt(guildId) },
      select: { id: true },
    });
    throw guild ? new UnknownRoleError() : new UnknownGuildError();
  }
}

import type { SnowflakeGenerator } from '@acs/snowflake';
import type { Member, Role } from '../domain/guild-model';
import { MAX_ROLES_PER_GUILD } from '../domain/limits';
import { MaxRolesError, UnknownGuildError } from '../domain/permissions-errors';
import { isMemberChanged, memberEventData, roleEventData } from '../domain/render/render-guild-events';
import type { PutBotMemberInput } from '../domain/validate-put-bot-member';
import type { PrismaClient } from '../generated/prisma/client';
import { DEFAULT_ROLE_POSITION } from './guild-store';
import { lockGuild } from './lock-guild';
import { deleteMemberWithManagedRole } from './member-store';
import { toMember, toRole } from './to-domain';
import type { TransactionClient } from './transaction-client';
import { writeOutboxEvent } from './write-outbox-event';

/** The result of PutBotMember: the bot's member, its managed role if any, and whether it joined now. */
export interface PutBotMemberResult {
  member: Member;
  role: Role | null;
  created: boolean;
}

/** The bot members of one guild: the application ids of its installed apps' bots. */
export interface GuildBots {
  guildId: string;
  applicationIds: string[];
}

/**
 * Installed apps' bots as guild members: the member (user id = application id, marked
 * `bot`) and the managed role that holds the permissions granted at install
 * (`role.bot_id`), as the real service creates them when a bot is added with the `bot`
 * scope. Each change writes its member and role events.
 */
export class BotMemberStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly snowflakes: SnowflakeGenerator,
  ) {}

  /**
   * Makes the bot a member and its managed role hold exactly `permissions`, in one
   * transaction that locks the guild (the role count and the one-role-per-bot rule): the
   * role is created (just above @everyone) and assigned, updated, or deleted when the
   * permissions are 0. Idempotent. 404 10004 for an unknown guild; 400 30005 when a new
   * role would pass 250.
   */
  async putBotMember(input: PutBotMemberInput): Promise<PutBotMemberResult> {
    const guildId = BigInt(input.guildId);
    const botId = BigInt(input.botId);
    const key = { guildId_userId: { guildId, userId: botId } };
    const include = { roles: { select: { roleId: true } } };
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, input.guildId))) throw new UnknownGuildError();
      const { count } = await tx.member.createMany({
        data: [{ guildId, userId: botId, bot: true }],
        skipDuplicates: true,
      });
      const before = count === 0 ? await tx.member.findUniqueOrThrow({ where: key, include }) : null;
      if (before && !before.bot) await tx.member.update({ where: key, data: { bot: true } });
      const role = await this.putManagedRole(tx, guildId, botId, input);
      const member = toMember(await tx.member.findUniqueOrThrow({ where: key, include }));
      // The role's event first: a client applies GUILD_MEMBER_* naming a role it knows.
      if (count === 1) await writeOutboxEvent(tx, 'member.added', memberEventData(member, true));
      else if (before && isMemberChanged(toMember(before), member))
        await writeOutboxEvent(tx, 'member.updated', memberEventData(member, true));
      return { member, role, created: count === 1 };
    });
  }

  /**
   * Removes the bot's member and its managed role; false when there was neither (also for
   * an unknown guild), so that a repeated removal succeeds.
   */
  async removeBotMember(guildId: string, botId: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const role = await tx.role.findUnique({
        where: { guildId_botId: { guildId: BigInt(guildId), botId: BigInt(botId) } },
        select: { id: true },
      });
      const removed = await deleteMemberWithManagedRole(tx, BigInt(guildId), BigInt(botId));
      return removed || role !== null;
    });
  }

  /**
   * Renames the bot's managed role in every guild to the application's new name (as the
   * real service does when an app is renamed), writing `role.updated` for each; returns
   * how many roles were renamed.
   */
  async renameManagedRoles(botId: string, name: string): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.role.updateManyAndReturn({
        where: { botId: BigInt(botId), name: { not: name } },
        data: { name },
      });
      for (const row of rows) await writeOutboxEvent(tx, 'role.updated', roleEventData(toRole(row)));
      return rows.length;
    });
  }

  /** The bots that are members of each of the guilds (unknown guilds have none), in request order. */
  async listGuildBots(guildIds: readonly string[]): Promise<GuildBots[]> {
    const rows = await this.prisma.member.findMany({
      where: { guildId: { in: guildIds.map(BigInt) }, bot: true },
      select: { guildId: true, userId: true },
      orderBy: [{ guildId: 'asc' }, { userId: 'asc' }],
    });
    const byGuild = new Map<string, string[]>(guildIds.map((id) => [id, []]));
    for (const row of rows) byGuild.get(row.guildId.toString())?.push(row.userId.toString());
    return [...byGuild].map(([guildId, applicationIds]) => ({ guildId, applicationIds }));
  }

  private async putManagedRole(
    tx: TransactionClient,
    guildId: bigint,
    botId: bigint,
    input: PutBotMemberInput,
  ): Promise<Role | null> {
    const existing = await tx.role.findUnique({ where: { guildId_botId: { guildId, botId } } });
    if (input.permissions === 0n) {
      if (existing) {
        await tx.role.delete({ where: { id: existing.id } });
        await writeOutboxEvent(tx, 'role.deleted', {
          guild_id: input.guildId,
          role_id: existing.id.toString(),
        });
      }
      return null;
    }
    let row = existing;
    if (!row) {
      if ((await tx.role.count({ where: { guildId } })) >= MAX_ROLES_PER_GUILD) throw new MaxRolesError();
      row = await tx.role.create({
        data: {
          id: BigInt(this.snowflakes.next()),
          guildId,
          name: input.roleName,
          permissions: input.permissions,
          position: DEFAULT_ROLE_POSITION,
          botId,
        },
      });
      await writeOutboxEvent(tx, 'role.created', roleEventData(toRole(row)));
    } else if (row.permissions !== input.permissions) {
      // A new install keeps the role's id and name (an admin may have renamed it).
      row = await tx.role.update({ where: { id: row.id }, data: { permissions: input.permissions } });
      await writeOutboxEvent(tx, 'role.updated', roleEventData(toRole(row)));
    }
    await tx.memberRole.createMany({
      data: [{ guildId, userId: botId, roleId: row.id }],
      skipDuplicates: true,
    });
    return toRole(row);
  }
}

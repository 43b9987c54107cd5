import type { SnowflakeGenerator } from '@acs/snowflake';
import type { Member, Role } from '../domain/guild-model';
import { MAX_ROLES_PER_GUILD } from '../domain/limits';
import { MaxRolesError, UnknownGuildError } from '../domain/permissions-errors';
import type { PutBotMemberInput } from '../domain/validate-put-bot-member';
import type { PrismaClient } from '../generated/prisma/client';
import { DEFAULT_ROLE_POSITION } from './guild-store';
import { lockGuild } from './lock-guild';
import { toMember, toRole } from './to-domain';
import type { TransactionClient } from './transaction-client';

/** The result of PutBotMember: the bot's member, its managed role if any, and whether it joined now. */
export interface PutBotMemberResult {
  member: Member;
  role: Role | null;
  created: boolean;
}

/**
 * Installed apps' bots as guild members: the member (user id = application id) and the
 * managed role that holds the permissions granted at install (`role.bot_id`), as the real
 * service creates them when a bot is added with the `bot` scope.
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
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockGuild(tx, input.guildId))) throw new UnknownGuildError();
      const { count } = await tx.member.createMany({
        data: [{ guildId, userId: botId, isBot: true }],
        skipDuplicates: true,
      });
      // A bot installed before members knew their kind is marked now.
      if (count === 0) {
        await tx.member.updateMany({
          where: { guildId, userId: botId, isBot: false },
          data: { isBot: true },
        });
      }
      const role = await this.putManagedRole(tx, guildId, botId, input);
      const row = await tx.member.findUniqueOrThrow({
        where: { guildId_userId: { guildId, userId: botId } },
        include: { roles: { select: { roleId: true } } },
      });
      return { member: toMember(row), role, created: count === 1 };
    });
  }

  /**
   * Removes the bot's member and its managed role; false when there was neither (also for
   * an unknown guild), so that a repeated removal succeeds.
   */
  async removeBotMember(guildId: string, botId: string): Promise<boolean> {
    const [roles, members] = await this.prisma.$transaction([
      this.prisma.role.deleteMany({ where: { guildId: BigInt(guildId), botId: BigInt(botId) } }),
      this.prisma.member.deleteMany({ where: { guildId: BigInt(guildId), userId: BigInt(botId) } }),
    ]);
    return roles.count + members.count > 0;
  }

  private async putManagedRole(
    tx: TransactionClient,
    guildId: bigint,
    botId: bigint,
    input: PutBotMemberInput,
  ): Promise<Role | null> {
    const existing = await tx.role.findUnique({ where: { guildId_botId: { guildId, botId } } });
    if (input.permissions === 0n) {
      if (existing) await tx.role.delete({ where: { id: existing.id } });
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
    } else if (row.permissions !== input.permissions) {
      // A new install keeps the role's id and name (an admin may have renamed it).
      row = await tx.role.update({ where: { id: row.id }, data: { permissions: input.permissions } });
    }
    await tx.memberRole.createMany({
      data: [{ guildId, userId: botId, roleId: row.id }],
      skipDuplicates: true,
    });
    return toRole(row);
  }
}

import type { Member } from '../domain/guild-model';
import { OwnerNotRemovableError, UnknownGuildError, UnknownMemberError } from '../domain/permissions-errors';
import { resolveMemberRoles, type PutMemberInput } from '../domain/validate-put-member';
import type { PrismaClient } from '../generated/prisma/client';
import { toMember } from './to-domain';

/** The result of PutMember: the member and whether it was added (else updated). */
export interface PutMemberResult {
  member: Member;
  created: boolean;
}

/** Guild membership and members' roles. */
export class MemberStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Adds a user to a guild or updates the membership, in one transaction: given roles
   * replace the member's roles (unknown ones and other bots' managed roles are 50035 at
   * `roles.<index>`; a bot keeps its own managed role), a given nick replaces the nick,
   * anything absent stays. 404 10004 for an unknown guild.
   */
  async putMember(guildId: string, userId: string, input: PutMemberInput): Promise<PutMemberResult> {
    const guild = BigInt(guildId);
    const user = BigInt(userId);
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.guild.findUnique({ where: { id: guild }, select: { id: true } });
      if (!found) throw new UnknownGuildError();
      let roleIds: string[] | undefined;
      if (input.roles) {
        const roles = await tx.role.findMany({
          where: { guildId: guild },
          select: { id: true, botId: true },
        });
        roleIds = resolveMemberRoles(
          input.roles,
          guildId,
          userId,
          new Map(roles.map((r) => [r.id.toString(), r.botId === null ? null : r.botId.toString()])),
        );
      }

      // ON CONFLICT DO NOTHING: tells a new member from an existing one without a race.
      const { count } = await tx.member.createMany({
        data: [{ guildId: guild, userId: user, nick: input.nick ?? null }],
        skipDuplicates: true,
      });
      if (count === 0 && input.nick !== undefined) {
        await tx.member.update({
          where: { guildId_userId: { guildId: guild, userId: user } },
          data: { nick: input.nick },
        });
      }
      if (roleIds) {
        await tx.memberRole.deleteMany({ where: { guildId: guild, userId: user } });
        await tx.memberRole.createMany({
          data: roleIds.map((id) => ({ guildId: guild, userId: user, roleId: BigInt(id) })),
        });
      }
      const row = await tx.member.findUniqueOrThrow({
        where: { guildId_userId: { guildId: guild, userId: user } },
        include: { roles: { select: { roleId: true } } },
      });
      return { member: toMember(row), created: count === 1 };
    });
  }

  /**
   * Removes a member with its roles, and a bot's managed role with it (as on the real
   * service when a bot is kicked). 404 10004 for an unknown guild, 10007 for a user who
   * is not a member; the owner cannot be removed (403 50013).
   */
  async removeMember(guildId: string, userId: string): Promise<void> {
    const guild = await this.prisma.guild.findUnique({
      where: { id: BigInt(guildId) },
      select: { ownerId: true },
    });
    if (!guild) throw new UnknownGuildError();
    if (guild.ownerId === BigInt(userId)) throw new OwnerNotRemovableError();
    const [{ count }] = await this.prisma.$transaction([
      this.prisma.member.deleteMany({ where: { guildId: BigInt(guildId), userId: BigInt(userId) } }),
      this.prisma.role.deleteMany({ where: { guildId: BigInt(guildId), botId: BigInt(userId) } }),
    ]);
    if (count === 0) throw new UnknownMemberError();
  }
}

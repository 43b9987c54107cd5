import { MissingAccessError } from '@acs/discord-errors';
import type { Member } from '../domain/guild-model';
import { OwnerNotRemovableError, UnknownGuildError, UnknownMemberError } from '../domain/permissions-errors';
import { planModifyMember } from '../domain/plan-modify-member';
import type { ModifyMemberInput } from '../domain/validate-modify-member';
import { isMemberChanged, memberEventData } from '../domain/render/render-guild-events';
import type { ListGuildMembersInput } from '../domain/validate-list-guild-members';
import { resolveMemberRoles, type PutMemberInput } from '../domain/validate-put-member';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { lockGuildForMemberChange } from './lock-guild';
import { toMember, toRole } from './to-domain';
import type { TransactionClient } from './transaction-client';
import { writeOutboxEvent } from './write-outbox-event';

/** The result of PutMember: the member and whether it was added (else updated). */
export interface PutMemberResult {
  member: Member;
  created: boolean;
}

/** A member with its roles and whether it is a bot, as one transaction reads it. */
async function readMember(
  tx: TransactionClient,
  guildId: bigint,
  userId: bigint,
): Promise<{ member: Member; bot: boolean } | null> {
  const row = await tx.member.findUnique({
    where: { guildId_userId: { guildId, userId } },
    include: { roles: { select: { roleId: true } } },
  });
  return row ? { member: toMember(row), bot: row.bot } : null;
}

/**
 * Deletes a member and the managed role of the bot it may be, writing `member.removed` and
 * `role.deleted`; false when the user was no member (a leftover managed role is still
 * deleted, with its event).
 */
export async function deleteMemberWithManagedRole(
  tx: TransactionClient,
  guildId: bigint,
  userId: bigint,
): Promise<boolean> {
  const key = { guildId_userId: { guildId, userId } };
  const member = await tx.member.findUnique({ where: key, select: { bot: true } });
  const role = await tx.role.findUnique({
    where: { guildId_botId: { guildId, botId: userId } },
    select: { id: true },
  });
  // deleteMany, not delete: a concurrent removal may have taken the rows since they were read.
  const members = await tx.member.deleteMany({ where: { guildId, userId } });
  const roles = role ? await tx.role.deleteMany({ where: { id: role.id } }) : { count: 0 };
  const guild = guildId.toString();
  const removed = member !== null && members.count > 0;
  if (removed)
    await writeOutboxEvent(tx, 'member.removed', {
      guild_id: guild,
      user_id: userId.toString(),
      bot: member.bot,
    });
  if (role && roles.count > 0)
    await writeOutboxEvent(tx, 'role.deleted', { guild_id: guild, role_id: role.id.toString() });
  return removed;
}

/** Guild membership and members' roles; each change writes its member and role events. */
export class MemberStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Adds a user to a guild or updates the membership, in one transaction: given roles
   * replace the member's roles (unknown ones and other bots' managed roles are 50035 at
   * `roles.<index>`; a bot keeps its own managed role), a given nick replaces the nick,
   * anything absent stays. 404 10004 for an unknown guild. Writes `member.added`, or
   * `member.updated` when the nick or roles changed.
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
      const changing = count === 0 && (input.nick !== undefined || roleIds !== undefined);
      const before = changing ? await readMember(tx, guild, user) : null;
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
      const after = await readMember(tx, guild, user);
      if (!after) throw new UnknownMemberError(); // the row was written above in this transaction
      if (count === 1) {
        await writeOutboxEvent(tx, 'member.added', memberEventData(after.member, after.bot));
      } else if (before && isMemberChanged(before.member, after.member)) {
        await writeOutboxEvent(tx, 'member.updated', memberEventData(after.member, after.bot));
      }
      return { member: after.member, created: count === 1 };
    });
  }

  /**
   * Modify Guild Member by a bot (`actorId`, its user id) or by AutoMod (`actorId` null):
   * in one transaction with the guild's row locked (so that roles and the hierarchy do not
   * move under the decision), the planner's rules weighed against the database's clock,
   * then the nick, timeout and roles written and `member.updated` when anything changed.
   * 404 10004 for an unknown guild, 403 50001 when the bot is no member of it, 404 10007
   * for a user who is not a member; the planner's 50013 and 50035.
   */
  async modifyMember(
    guildId: string,
    userId: string,
    actorId: string | null,
    input: ModifyMemberInput,
  ): Promise<Member> {
    const guild = BigInt(guildId);
    const user = BigInt(userId);
    return this.prisma.$transaction(async (tx) => {
      const locked = await lockGuildForMemberChange(tx, guildId);
      if (!locked) throw new UnknownGuildError();
      const actor = actorId === null ? null : await readMember(tx, guild, BigInt(actorId));
      if (actorId !== null && !actor) throw new MissingAccessError();
      // The member's row, locked: a removal (which does not lock the guild) waits for this
      // change, so the roles written below never reference a member gone meanwhile.
      const held = await tx.$queryRaw<unknown[]>(
        Prisma.sql`SELECT 1 FROM "permissions"."member" WHERE guild_id = ${guild} AND user_id = ${user} FOR UPDATE`,
      );
      const target = held.length === 0 ? undefined : await readMember(tx, guild, user);
      if (!target) throw new UnknownMemberError();
      const roles = await tx.role.findMany({ where: { guildId: guild } });
      const plan = planModifyMember(
        {
          guildId,
          ownerId: locked.ownerId,
          roles: new Map(roles.map((row) => [row.id.toString(), toRole(row)])),
          target: target.member,
          actor: actor?.member ?? null,
          now: locked.now,
        },
        input,
      );
      if (plan.nick !== undefined || plan.communicationDisabledUntil !== undefined) {
        await tx.member.updateMany({
          where: { guildId: guild, userId: user },
          data: {
            ...(plan.nick === undefined ? {} : { nick: plan.nick }),
            ...(plan.communicationDisabledUntil === undefined
              ? {}
              : { communicationDisabledUntil: plan.communicationDisabledUntil }),
          },
        });
      }
      if (plan.roleIds) {
        await tx.memberRole.deleteMany({ where: { guildId: guild, userId: user } });
        await tx.memberRole.createMany({
          data: plan.roleIds.map((id) => ({ guildId: guild, userId: user, roleId: BigInt(id) })),
        });
      }
      const after = await readMember(tx, guild, user);
      if (!after) throw new UnknownMemberError();
      if (isMemberChanged(target.member, after.member)) {
        await writeOutboxEvent(tx, 'member.updated', memberEventData(after.member, after.bot));
      }
      return after.member;
    });
  }

  /**
   * Removes a member with its roles, and a bot's managed role with it (as on the real
   * service when a bot is kicked), writing `member.removed` and the role's `role.deleted`.
   * 404 10004 for an unknown guild, 10007 for a user who is not a member; the owner
   * cannot be removed (403 50013).
   */
  async removeMember(guildId: string, userId: string): Promise<void> {
    const guild = BigInt(guildId);
    const user = BigInt(userId);
    await this.prisma.$transaction(async (tx) => {
      const found = await tx.guild.findUnique({ where: { id: guild }, select: { ownerId: true } });
      if (!found) throw new UnknownGuildError();
      if (found.ownerId === user) throw new OwnerNotRemovableError();
      const removed = await deleteMemberWithManagedRole(tx, guild, user);
      if (!removed) throw new UnknownMemberError();
    });
  }

  /**
   * Members of a guild by user id, ascending: the given users (with those who are not
   * members), or up to `limit` after `after`, whose nick starts with `nickPrefix`
   * (case-insensitively) when one is given. 404 10004 for an unknown guild.
   */
  async listGuildMembers(input: ListGuildMembersInput): Promise<{ members: Member[]; notFound: string[] }> {
    const guildId = BigInt(input.guildId);
    const found = await this.prisma.guild.findUnique({ where: { id: guildId }, select: { id: true } });
    if (!found) throw new UnknownGuildError();
    const byUsers = input.userIds.length > 0;
    const rows = await this.prisma.member.findMany({
      where: {
        guildId,
        ...(byUsers
          ? { userId: { in: input.userIds.map(BigInt) } }
          : input.after === null
            ? {}
            : { userId: { gt: BigInt(input.after) } }),
        ...(input.nickPrefix === ''
          ? {}
          : { nick: { startsWith: input.nickPrefix, mode: 'insensitive' as const } }),
      },
      include: { roles: { select: { roleId: true } } },
      orderBy: { userId: 'asc' },
      ...(byUsers ? {} : { take: input.limit }),
    });
    const members = rows.map(toMember);
    const present = new Set(members.map((m) => m.userId));
    const notFound = byUsers ? input.userIds.filter((id) => !present.has(id)) : [];
    return { members, notFound };
  }
}

import { fieldError, MissingPermissionsError } from '@acs/discord-errors';
import { checkPermissions } from './check-permissions';
import type { Member, Role } from './guild-model';
import { MAX_TIMEOUT_MS } from './limits';
import { hasPermissions, namePermissions, PERMISSION_FLAGS as P } from './permission-flags';
import type { ModifyMemberInput } from './validate-modify-member';
import { resolveMemberRoles } from './validate-put-member';
import { ErrorCode } from './validation/error-codes';

/** What the store read for a Modify Guild Member, in one transaction. */
export interface ModifyMemberFacts {
  guildId: string;
  ownerId: string;
  /** Every role of the guild, @everyone (id = the guild's) included. */
  roles: ReadonlyMap<string, Role>;
  /** The member changed. */
  target: Member;
  /** The bot acting (its member); null when AutoMod acts itself (its TIMEOUT action). */
  actor: Member | null;
  /** The database's clock: the 28 days of a timeout and a running timeout of the actor count from it. */
  now: Date;
}

/** The changes to write: each field absent stays as it is. */
export interface ModifyMemberPlan {
  nick?: string | null;
  /** The member's roles after the change (no @everyone, their own managed role kept). */
  roleIds?: string[];
  communicationDisabledUntil?: Date | null;
}

/**
 * Plans a Modify Guild Member (D:resources/guild.mdx §Modify Guild Member; D:topics/
 * permissions.mdx §Permission Hierarchy), or throws its error. A bot needs, guild-wide and
 * with its own timeout applied: MODERATE_MEMBERS for `communication_disabled_until`,
 * MANAGE_NICKNAMES for another member's `nick` (its own: CHANGE_NICKNAME too), MANAGE_ROLES
 * for `roles` (403 / 50013 naming what it lacks). Nobody but the owner changes the owner,
 * and a bot changes a member's timeout or nick only when its highest role is above theirs,
 * and adds or removes only roles below its highest (50013); roles at the same position
 * rank by age, as on Discord (`compareRoles`). An administrator (or the owner)
 * cannot be timed out (50013); a timeout may end at most 28 days after `now` (50035 at
 * `communication_disabled_until`); a past end is stored and restricts nothing. AutoMod
 * (`actor` null) only times out, never the owner or an administrator, needs no permission
 * and has no rank (its rule's duration was bounded when the rule was written).
 */
export function planModifyMember(facts: ModifyMemberFacts, input: ModifyMemberInput): ModifyMemberPlan {
  const { target, actor } = facts;
  const targetIsOwner = target.userId === facts.ownerId;
  const targetBase = guildPermissionsOf(facts, { ...target, communicationDisabledUntil: null });
  const plan: ModifyMemberPlan = {};

  if (input.communicationDisabledUntil !== undefined) {
    const until = input.communicationDisabledUntil;
    // AutoMod's durations were bounded (4 weeks) when its rule was written, on its own clock.
    if (actor !== null && until !== null && until.getTime() > facts.now.getTime() + MAX_TIMEOUT_MS) {
      throw fieldError(
        'communication_disabled_until',
        ErrorCode.COMMUNICATION_DISABLED_UNTIL_TOO_LATE,
        'Timeouts can last at most 28 days.',
      );
    }
    if (until !== null && (targetIsOwner || hasPermissions(targetBase, P.ADMINISTRATOR))) {
      throw new MissingPermissionsError(['the guild owner and administrators cannot be timed out']);
    }
    plan.communicationDisabledUntil = until;
  }
  if (actor === null) {
    if (input.nick !== undefined || input.roles !== undefined) throw new MissingPermissionsError();
    return plan;
  }

  const actorIsOwner = actor.userId === facts.ownerId;
  const actorPermissions = guildPermissionsOf(facts, actor);
  const self = actor.userId === target.userId;
  const required =
    (input.communicationDisabledUntil !== undefined ? P.MODERATE_MEMBERS : 0n) |
    (input.nick !== undefined && !self ? P.MANAGE_NICKNAMES : 0n) |
    (input.roles !== undefined ? P.MANAGE_ROLES : 0n);
  const missing = required & ~actorPermissions;
  if (missing !== 0n) throw new MissingPermissionsError(namePermissions(missing));
  const nickRight = actorPermissions & (P.CHANGE_NICKNAME | P.MANAGE_NICKNAMES);
  if (input.nick !== undefined && self && nickRight === 0n)
    throw new MissingPermissionsError(['CHANGE_NICKNAME']);
  if (!actorIsOwner) {
    if (targetIsOwner) throw new MissingPermissionsError(['the guild owner cannot be changed by a member']);
    const actorTop = highestRole(facts, actor);
    const outranked = !self && compareRoles(highestRole(facts, target), actorTop) >= 0;
    if (outranked && (input.communicationDisabledUntil !== undefined || input.nick !== undefined)) {
      throw new MissingPermissionsError(["the member's highest role is not below yours"]);
    }
    if (input.roles !== undefined) {
      const after = rolesAfter(facts, input.roles);
      const before = new Set(target.roleIds);
      const changed = [
        ...after.filter((id) => !before.has(id)),
        ...target.roleIds.filter((id) => !after.includes(id)),
      ];
      if (changed.some((id) => compareRoles(facts.roles.get(id), actorTop) >= 0)) {
        throw new MissingPermissionsError(['a role to add or remove is not below your highest role']);
      }
      plan.roleIds = after;
    }
  } else if (input.roles !== undefined) plan.roleIds = rolesAfter(facts, input.roles);
  if (input.nick !== undefined) plan.nick = input.nick;
  return plan;
}

/** A member's guild-level permissions at `now`, their own timeout applied. */
function guildPermissionsOf(facts: ModifyMemberFacts, member: Member): bigint {
  const context = {
    guildId: facts.guildId,
    ownerId: facts.ownerId,
    everyonePermissions: facts.roles.get(facts.guildId)?.permissions ?? 0n,
    member: {
      userId: member.userId,
      roleIds: member.roleIds,
      rolePermissions: member.roleIds.map((id) => facts.roles.get(id)?.permissions ?? 0n),
      communicationDisabledUntil: member.communicationDisabledUntil,
    },
    now: facts.now,
  };
  return checkPermissions(context, 0n).permissions;
}

/** A role's rank: its position, the same as `@everyone`'s (0) when unknown. */
interface Rank {
  id: string;
  position: number;
}

/**
 * Orders two roles as Discord's hierarchy does (discord.js `Role.comparePositions`): by
 * position, and at the same position the older role (lower id) is higher. Positive when
 * `a` is above `b`, 0 for the same role.
 */
export function compareRoles(a: Rank | undefined, b: Rank): number {
  const left = a ?? { id: '0', position: 0 };
  if (left.position !== b.position) return left.position - b.position;
  const ids = BigInt(b.id) - BigInt(left.id);
  return ids === 0n ? 0 : ids > 0n ? 1 : -1;
}

/** A member's highest role; `@everyone` (position 0) when they have none. */
function highestRole(facts: ModifyMemberFacts, member: Member): Rank {
  let top: Rank = facts.roles.get(facts.guildId) ?? { id: facts.guildId, position: 0 };
  for (const id of member.roleIds) {
    const role = facts.roles.get(id);
    if (role && compareRoles(role, top) > 0) top = role;
  }
  return top;
}

/** The requested roles resolved against the guild's (50035 at `roles.<index>` for unknown or managed ones). */
function rolesAfter(facts: ModifyMemberFacts, roles: readonly string[]): string[] {
  const guildRoles = new Map([...facts.roles].map(([id, role]) => [id, role.botId]));
  return resolveMemberRoles(roles, facts.guildId, facts.target.userId, guildRoles);
}

import type { Member, Role } from '../guild-model';
import { renderMember, type MemberJson } from './render-member';
import { renderRole, type RoleJson } from './render-role';

/** The data of `permissions.member.added` / `.updated`: the member as the API shows it. */
export interface MemberEventData {
  guild_id: string;
  user_id: string;
  /** Whether the member is an installed app's bot. */
  bot: boolean;
  /** The member object (an index signature: events carry it as an open JSON object). */
  member: MemberJson & Record<string, unknown>;
}

/** The data of a member event (GUILD_MEMBER_ADD / UPDATE once the dispatcher adds the user). */
export function memberEventData(member: Member, bot: boolean): MemberEventData {
  return { guild_id: member.guildId, user_id: member.userId, bot, member: { ...renderMember(member) } };
}

/** The data of `permissions.role.created` / `.updated` (GUILD_ROLE_CREATE / UPDATE's `d`). */
export function roleEventData(role: Role): { guild_id: string; role: RoleJson & Record<string, unknown> } {
  return { guild_id: role.guildId, role: { ...renderRole(role) } };
}

/** Whether a member's nick or roles differ between two reads (GUILD_MEMBER_UPDATE is due). */
export function isMemberChanged(before: Member, after: Member): boolean {
  return (
    before.nick !== after.nick ||
    (before.communicationDisabledUntil?.getTime() ?? null) !==
      (after.communicationDisabledUntil?.getTime() ?? null) ||
    before.roleIds.length !== after.roleIds.length ||
    before.roleIds.some((id, i) => after.roleIds[i] !== id)
  );
}

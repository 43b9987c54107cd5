import type { Member } from '../guild-model';
import { renderMember } from './render-member';

/** The member fields that are not the user's: everything `renderMember` shows but `user`. */
function memberFieldsOf(member: Member) {
  const json = renderMember(member);
  return {
    nick: json.nick,
    avatar: json.avatar,
    banner: json.banner,
    roles: json.roles,
    joined_at: json.joined_at,
    premium_since: json.premium_since,
    deaf: json.deaf,
    mute: json.mute,
    flags: json.flags,
    pending: json.pending,
    communication_disabled_until: json.communication_disabled_until,
  };
}

/**
 * The invoker's member object of an interaction (D:interactions/receiving-and-responding.mdx
 * §Interaction Object: "guild member data for the invoking user, including permissions"):
 * the member without `user`, which the caller adds from oauth, with `permissions`, the
 * member's permissions in the channel as a decimal string.
 */
export function renderInvocationMember(member: Member, permissions: bigint): Record<string, unknown> {
  return { ...memberFieldsOf(member), permissions: permissions.toString() };
}

/**
 * A member of an interaction's `resolved.members`: partial, without `user`, `deaf` and
 * `mute` (D §Resolved Data Structure; the user is in `resolved.users`), with `permissions`
 * in the interaction's channel.
 */
export function renderResolvedMember(member: Member, permissions: bigint): Record<string, unknown> {
  const fields: Record<string, unknown> = memberFieldsOf(member);
  delete fields.deaf;
  delete fields.mute;
  return { ...fields, permissions: permissions.toString() };
}

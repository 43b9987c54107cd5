import type { Member } from '../guild-model';

/** A guild member as the API shows it (D:resources/guild.mdx §Guild Member Object). */
export interface MemberJson {
  user: { id: string };
  nick: string | null;
  avatar: null;
  banner: null;
  roles: string[];
  joined_at: string;
  premium_since: null;
  deaf: boolean;
  mute: boolean;
  flags: number;
  pending: boolean;
  /** ISO8601; kept after the timeout ended, as Discord shows it (clients compare it with their clock). */
  communication_disabled_until: string | null;
}

/**
 * Renders a member. `user` carries only the id: users belong to the oauth service, and
 * api-gateway fills in the rest where a route shows the full user.
 */
export function renderMember(member: Member): MemberJson {
  return {
    user: { id: member.userId },
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: member.roleIds,
    joined_at: member.joinedAt.toISOString(),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: member.communicationDisabledUntil?.toISOString() ?? null,
  };
}

/**
 * The partial member a MESSAGE_CREATE in a guild carries beside its author
 * (D:events/gateway-events.mdx §Message Create: "member properties for this message's
 * author", without `user`).
 */
export function renderMessageMember(member: Member): Omit<MemberJson, 'user'> {
  const partial: Partial<MemberJson> = renderMember(member);
  delete partial.user;
  return partial as Omit<MemberJson, 'user'>;
}

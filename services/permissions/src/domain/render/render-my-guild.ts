import { computeBasePermissions } from '../compute-base-permissions';

/** One guild of a user's listing, with what the user's permissions there are computed from. */
export interface MyGuildSource {
  id: string;
  name: string;
  ownerId: string;
  everyonePermissions: bigint;
  /** The permissions of the user's roles there (none when not a member). */
  rolePermissions: readonly bigint[];
  memberCount: number | null;
}

/**
 * A partial guild of `GET /users/@me/guilds` (OAS `MyGuildResponse`) with `owner` and the
 * user's guild-level permissions as a string. `granted` (a bot's installation) counts as
 * one more role of the user's.
 */
export function renderMyGuild(
  guild: MyGuildSource,
  userId: string,
  granted: bigint | undefined,
  withCounts: boolean,
): Record<string, unknown> {
  const permissions = computeBasePermissions({
    isOwner: guild.ownerId === userId,
    everyonePermissions: guild.everyonePermissions,
    rolePermissions: granted === undefined ? guild.rolePermissions : [...guild.rolePermissions, granted],
  });
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    banner: null,
    owner: guild.ownerId === userId,
    permissions: permissions.toString(),
    features: [],
    // Presence is not modelled: no one is counted online.
    ...(withCounts
      ? { approximate_member_count: guild.memberCount ?? 0, approximate_presence_count: 0 }
      : {}),
  };
}

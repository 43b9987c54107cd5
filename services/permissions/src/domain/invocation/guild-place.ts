import type { PermissionContext } from '../check-permissions';
import { checkPermissions } from '../check-permissions';
import type { Channel, Guild, Member, Overwrite, Role } from '../guild-model';

/** A guild channel with its parent's overwrites, which a thread's permissions come from. */
export interface PlaceChannel {
  channel: Channel;
  /** The parent channel's overwrites (none when it has no parent). */
  parentOverwrites: Overwrite[];
}

/**
 * The part of a guild an invocation needs, as the store loads it at once: the guild with
 * every role, the members asked for (the invoker, the app's bot, the users to resolve) and
 * the guild's channels asked for (the invocation's, those to resolve). Ids not found are
 * simply absent, so "not a member" and "not a channel of this guild" read the same.
 */
export interface GuildPlace {
  guild: Guild;
  roles: ReadonlyMap<string, Role>;
  members: ReadonlyMap<string, Member>;
  channels: ReadonlyMap<string, PlaceChannel>;
  /** When the place was read (the database's clock): members' timeouts are weighed against it. */
  now: Date;
}

/**
 * The permission context of a user in a channel of the place, exactly as
 * `PermissionContextStore` would load it, so that `checkPermissions` and the command
 * decision compute on it the same way; a user who is not a member has none.
 */
export function permissionContextOf(place: GuildPlace, userId: string, at: PlaceChannel): PermissionContext {
  const member = place.members.get(userId);
  const { channel } = at;
  return {
    guildId: place.guild.id,
    ownerId: place.guild.ownerId,
    everyonePermissions: place.roles.get(place.guild.id)?.permissions ?? 0n,
    member: member
      ? {
          userId,
          roleIds: member.roleIds,
          rolePermissions: member.roleIds.map((id) => place.roles.get(id)?.permissions ?? 0n),
          communicationDisabledUntil: member.communicationDisabledUntil,
        }
      : null,
    now: place.now,
    channel: {
      type: channel.type,
      overwrites: channel.overwrites,
      parent: channel.parentId === null ? null : { overwrites: at.parentOverwrites },
      id: channel.id,
      parentId: channel.parentId,
    },
  };
}

/** A user's permissions in a channel of the place (overwrites and implicit denials applied); 0 for a non-member. */
export function permissionsIn(place: GuildPlace, userId: string, at: PlaceChannel): bigint {
  return checkPermissions(permissionContextOf(place, userId, at), 0n).permissions;
}

/**
 * What `@everyone` holds in a channel: a member with no role of its own whom no member
 * overwrite names (the empty id names no one). The app permissions of a bot that is not a
 * member of the guild (a user-installed app), as the interaction's `app_permissions`.
 */
export function everyonePermissionsIn(place: GuildPlace, at: PlaceChannel): bigint {
  const context = permissionContextOf(place, '', at);
  return checkPermissions({ ...context, member: { userId: '', roleIds: [], rolePermissions: [] } }, 0n)
    .permissions;
}

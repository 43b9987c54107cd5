// Row ↔ domain mapping: ids are BIGINT columns and decimal strings in the domain.
import type { Channel, Guild, Member, Overwrite, Role } from '../domain/guild-model';

/** A guild row. */
export function toGuild(row: {
  id: bigint;
  name: string;
  ownerId: bigint;
  preferredLocale: string;
  attachmentSizeLimit?: bigint | null;
}): Guild {
  return {
    id: row.id.toString(),
    name: row.name,
    ownerId: row.ownerId.toString(),
    preferredLocale: row.preferredLocale,
    attachmentSizeLimit:
      row.attachmentSizeLimit === null || row.attachmentSizeLimit === undefined
        ? null
        : Number(row.attachmentSizeLimit),
  };
}

/** A role row. */
export function toRole(row: {
  id: bigint;
  guildId: bigint;
  name: string;
  permissions: bigint;
  position: number;
  botId: bigint | null;
}): Role {
  return {
    id: row.id.toString(),
    guildId: row.guildId.toString(),
    name: row.name,
    permissions: row.permissions,
    position: row.position,
    botId: row.botId === null ? null : row.botId.toString(),
  };
}

/** A member row with its role rows; role ids in ascending order. */
export function toMember(row: {
  guildId: bigint;
  userId: bigint;
  nick: string | null;
  joinedAt: Date;
  communicationDisabledUntil: Date | null;
  roles: { roleId: bigint }[];
}): Member {
  return {
    guildId: row.guildId.toString(),
    userId: row.userId.toString(),
    nick: row.nick,
    roleIds: row.roles
      .map((r) => r.roleId)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map(String),
    joinedAt: row.joinedAt,
    communicationDisabledUntil: row.communicationDisabledUntil,
  };
}

/** An overwrite row. */
export function toOverwrite(row: { targetId: bigint; type: number; allow: bigint; deny: bigint }): Overwrite {
  return { id: row.targetId.toString(), type: row.type === 1 ? 1 : 0, allow: row.allow, deny: row.deny };
}

/** A channel row with its overwrite rows. */
export function toChannel(row: {
  id: bigint;
  guildId: bigint;
  type: number;
  name: string;
  parentId: bigint | null;
  position: number;
  createdAt: Date;
  overwrites: { targetId: bigint; type: number; allow: bigint; deny: bigint }[];
}): Channel {
  return {
    id: row.id.toString(),
    guildId: row.guildId.toString(),
    type: row.type,
    name: row.name,
    parentId: row.parentId === null ? null : row.parentId.toString(),
    position: row.position,
    overwrites: row.overwrites.map(toOverwrite),
    createdAt: row.createdAt,
  };
}

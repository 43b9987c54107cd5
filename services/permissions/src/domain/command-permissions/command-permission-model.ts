// Application command permissions (D:interactions/application-commands.mdx §Application
// Command Permissions Object; facts §17). Ids are decimal strings as on the wire.

/** Overwrite target kinds: ROLE 1, USER 2, CHANNEL 3. */
export const CommandPermissionType = { ROLE: 1, USER: 2, CHANNEL: 3 } as const;
export type CommandPermissionType = (typeof CommandPermissionType)[keyof typeof CommandPermissionType];

/** One overwrite: allow (`true`) or deny (`false`) a role, a user or a channel. */
export interface CommandPermission {
  id: string;
  type: CommandPermissionType;
  permission: boolean;
}

/** The overwrites of one command (or, when `id` is the application id, of the whole app) in a guild. */
export interface GuildCommandPermissions {
  id: string;
  applicationId: string;
  guildId: string;
  permissions: CommandPermission[];
}

/** Overwrites per command and guild (D: "max of 100"). */
export const MAX_COMMAND_PERMISSIONS = 100;

/** The "All Channels" constant: the guild id minus one. */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** The guild application command permissions object, as the API and the gateway show it. */
export interface CommandPermissionsObject {
  id: string;
  application_id: string;
  guild_id: string;
  permissions: CommandPermission[];
}

/** The wire object (`id`, `application_id`, `guild_id`, `permissions`). */
export function renderCommandPermissions(entry: GuildCommandPermissions): CommandPermissionsObject {
  return {
    id: entry.id,
    application_id: entry.applicationId,
    guild_id: entry.guildId,
    permissions: entry.permissions.map((p) => ({ id: p.id, type: p.type, permission: p.permission })),
  };
}

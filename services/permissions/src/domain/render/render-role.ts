import type { Role } from '../guild-model';

/** A role as the API shows it (D:topics/permissions.mdx §Role Object). */
export interface RoleJson {
  id: string;
  name: string;
  color: number;
  colors: { primary_color: number; secondary_color: number | null; tertiary_color: number | null };
  hoist: boolean;
  icon: string | null;
  unicode_emoji: string | null;
  position: number;
  permissions: string;
  managed: boolean;
  mentionable: boolean;
  /** Only on roles that have tags; here a bot's managed role (OpenAPI `GuildRoleTagsResponse`). */
  tags?: { bot_id: string };
  flags: number;
}

/**
 * Renders a role; what ACS does not model (colours, icons, hoisting) has its default. A
 * bot's managed role is `managed` with `tags.bot_id`; other roles have no `tags`.
 */
export function renderRole(role: Role): RoleJson {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.botId !== null,
    mentionable: false,
    ...(role.botId === null ? {} : { tags: { bot_id: role.botId } }),
    flags: 0,
  };
}

/** Orders roles as the API lists them: by position, then by id (D:topics/permissions.mdx §Role Object). */
export function sortRoles(roles: readonly Role[]): Role[] {
  return [...roles].sort((a, b) => a.position - b.position || compareIds(a.id, b.id));
}

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

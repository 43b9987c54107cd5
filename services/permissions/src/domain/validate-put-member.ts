import { MAX_NICK_LENGTH, MAX_ROLES_PER_GUILD, MIN_NICK_LENGTH } from './limits';
import { ErrorCode } from './validation/error-codes';
import { FormErrors } from '@acs/validation';
import { getField, readList, readModel, readSnowflake, readText } from './validation/read-value';

/** A valid PutMember body: `undefined` keeps the current value (or the default for a new member). */
export interface PutMemberInput {
  /** Role ids as given (order and repeats kept, so that errors can name the index). */
  roles?: string[];
  /** A nickname, or null to clear it. */
  nick?: string | null;
}

/**
 * Validates `{roles? (role ids), nick? (1-32 or null)}` (ADMIN-API.md `PUT
 * /admin/guilds/{id}/members/{user_id}`); throws 50035 with every problem. Whether the
 * roles exist is checked by `resolveMemberRoles` against the guild.
 */
export function validatePutMember(body: unknown): PutMemberInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const input: PutMemberInput = {};

  const rawRoles = getField(object, 'roles');
  if (rawRoles !== undefined && rawRoles !== null) input.roles = readRoleIds(rawRoles, errors);

  const rawNick = getField(object, 'nick');
  if (rawNick === null) input.nick = null;
  else if (rawNick !== undefined)
    input.nick = readText(rawNick, MIN_NICK_LENGTH, MAX_NICK_LENGTH, errors, ['nick']);

  if (errors.count > 0) throw errors.toError();
  return input;
}

const MANAGED_ROLE_MESSAGE = "A bot's managed role cannot be assigned to another member";

/**
 * Checks a member's role ids against the guild's roles (id → the bot id of a managed
 * role, else null): an unknown id is 50035 at `roles.<index>`, and so is a managed role,
 * which only its bot holds (on the real service it cannot be assigned to anyone else).
 * Returns the ids without repeats and without the @everyone role, which every member has
 * implicitly, plus the member's own managed role, which cannot be taken away.
 */
export function resolveMemberRoles(
  roles: readonly string[],
  guildId: string,
  userId: string,
  guildRoles: ReadonlyMap<string, string | null>,
): string[] {
  const errors = new FormErrors();
  const resolved = new Set<string>();
  roles.forEach((roleId, index) => {
    const botId = guildRoles.get(roleId);
    if (botId === undefined) errors.add(['roles', index], ErrorCode.UNKNOWN_ROLE, 'Unknown Role');
    else if (botId !== null && botId !== userId)
      errors.add(['roles', index], ErrorCode.ROLE_MANAGED, MANAGED_ROLE_MESSAGE);
    else if (roleId !== guildId) resolved.add(roleId);
  });
  if (errors.count > 0) throw errors.toError();
  for (const [roleId, botId] of guildRoles) if (botId === userId) resolved.add(roleId);
  return [...resolved];
}

/**
 * A member's `roles`: a list of at most MAX_ROLES_PER_GUILD role ids, each error at its
 * index; undefined when the list itself is refused.
 */
export function readRoleIds(raw: unknown, errors: FormErrors): string[] | undefined {
  const list = readList(raw, errors, ['roles']);
  if (!list) return undefined;
  if (list.length > MAX_ROLES_PER_GUILD) {
    errors.add(
      ['roles'],
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_ROLES_PER_GUILD} or fewer in length.`,
    );
    return undefined;
  }
  const roles = list.map((item, index) => readSnowflake(item, errors, ['roles', index]));
  return roles.filter((id): id is string => id !== undefined);
}

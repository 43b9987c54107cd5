import { fieldError, readPathSnowflake } from '@acs/discord-errors';
import { addNulError, FormErrors, hasNul, requireBitSet } from '@acs/validation';
import { MAX_ROLE_NAME_LENGTH } from './limits';
import { ALL_PERMISSIONS } from './permission-flags';
import { ErrorCode } from './validation/error-codes';

/** What PutBotMember puts in a guild: the bot user (id = application id) and its grant. */
export interface PutBotMemberInput {
  guildId: string;
  botId: string;
  /** The managed role's name: the application's. */
  roleName: string;
  /** Known bits only; 0n means the bot has no managed role. */
  permissions: bigint;
}

/**
 * Reads a PutBotMember request (from oauth, which has checked the application and the
 * installer): snowflake ids, a non-empty name cut to a role name's length, and the
 * granted bits masked to the known flags like any role's. 50035 at the field otherwise.
 */
export function validatePutBotMember(request: {
  guild_id: string;
  application_id: string;
  application_name: string;
  permissions: string;
}): PutBotMemberInput {
  const guildId = readPathSnowflake('guild_id', request.guild_id);
  const botId = readPathSnowflake('application_id', request.application_id);
  const roleName = readManagedRoleName('application_name', request.application_name);
  const permissions = requireBitSet('permissions', request.permissions) & ALL_PERMISSIONS;
  return { guildId, botId, roleName, permissions };
}

/**
 * An application's name as its managed role's name: trimmed and cut to a role name's
 * length; 50035 at `field` when empty or holding NUL.
 */
export function readManagedRoleName(field: string, applicationName: string): string {
  // At most two UTF-16 units per code point: cut before spreading, so a long name costs nothing.
  const name = applicationName
    .trimStart()
    .slice(0, 2 * MAX_ROLE_NAME_LENGTH)
    .trimEnd();
  const roleName = [...name].slice(0, MAX_ROLE_NAME_LENGTH).join('');
  if (roleName === '') throw fieldError(field, ErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  if (hasNul(roleName)) {
    const errors = new FormErrors();
    addNulError(errors, [field]);
    throw errors.toError();
  }
  return roleName;
}

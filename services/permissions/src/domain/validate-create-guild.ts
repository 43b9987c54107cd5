import { MAX_GUILD_NAME_LENGTH, MIN_GUILD_NAME_LENGTH } from './limits';
import { FormErrors } from '@acs/validation';
import { readModel, readRequired, readSnowflake, textReader } from './validation/read-value';

/** A valid CreateGuild body. */
export interface CreateGuildInput {
  name: string;
  ownerId: string;
}

/**
 * Validates `{name (2-100), owner_id}` (ADMIN-API.md `POST /admin/guilds`); throws 50035
 * with every problem. That the owner user exists is the caller's check.
 */
export function validateCreateGuild(body: unknown): CreateGuildInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const name = readRequired(object, 'name', errors, textReader(MIN_GUILD_NAME_LENGTH, MAX_GUILD_NAME_LENGTH));
  const ownerId = readRequired(object, 'owner_id', errors, readSnowflake);
  if (errors.count > 0 || name === undefined || ownerId === undefined) throw errors.toError();
  return { name, ownerId };
}

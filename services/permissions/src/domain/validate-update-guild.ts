import { MAX_GUILD_NAME_LENGTH, MIN_GUILD_NAME_LENGTH } from './limits';
import { FormErrors, getField } from '@acs/validation';
import { readIntegerInRange, readModel, readOptional, textReader } from './validation/read-value';

/** The largest upload limit an admin may set: 2^31 − 1 bytes (the interaction field is an int32). */
export const MAX_ATTACHMENT_SIZE_LIMIT = 2 ** 31 - 1;

/** A valid UpdateGuild body: each field present changes the guild. */
export interface UpdateGuildInput {
  name?: string;
  /** Bytes; null resets to the default. */
  attachmentSizeLimit?: number | null;
}

/**
 * Validates `{name? (2-100), attachment_size_limit? (1..2^31−1 bytes, or null to reset)}`
 * (ADMIN-API.md `PATCH /admin/guilds/{guild_id}`: the upload limit mirrors a guild's
 * boosts); throws 50035 with every problem.
 */
export function validateUpdateGuild(body: unknown): UpdateGuildInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const name = readOptional(object, 'name', errors, textReader(MIN_GUILD_NAME_LENGTH, MAX_GUILD_NAME_LENGTH));
  const limit = readOptional(object, 'attachment_size_limit', errors, (value, errs, path) =>
    readIntegerInRange(value, 1, MAX_ATTACHMENT_SIZE_LIMIT, errs, path),
  );
  if (errors.count > 0) throw errors.toError();
  const input: UpdateGuildInput = {};
  if (name !== undefined) input.name = name;
  if (limit !== undefined) input.attachmentSizeLimit = limit;
  else if (
    Object.prototype.hasOwnProperty.call(object, 'attachment_size_limit') &&
    getField(object, 'attachment_size_limit') === null
  ) {
    input.attachmentSizeLimit = null;
  }
  return input;
}

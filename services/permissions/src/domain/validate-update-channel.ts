import { FormErrors } from '@acs/validation';
import type { Overwrite } from './guild-model';
import { MAX_CHANNEL_NAME_LENGTH, MIN_CHANNEL_NAME_LENGTH } from './limits';
import { readOverwrites } from './validate-create-channel';
import { readModel, readOptional, textReader } from './validation/read-value';

/** A valid UpdateChannel body: what changes (undefined: kept). */
export interface UpdateChannelInput {
  name?: string;
  /** Replaces every overwrite of the channel. */
  overwrites?: Overwrite[];
}

/**
 * Validates `{name? (1-100), permission_overwrites? [{id, type, allow?, deny?}]}` (the
 * admin API's `PATCH /admin/channels/{id}`); throws 50035 with every problem.
 */
export function validateUpdateChannel(body: unknown): UpdateChannelInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const name = readOptional(
    object,
    'name',
    errors,
    textReader(MIN_CHANNEL_NAME_LENGTH, MAX_CHANNEL_NAME_LENGTH),
  );
  const overwrites = readOptional(object, 'permission_overwrites', errors, readOverwrites);
  if (errors.count > 0) throw errors.toError();
  return { ...(name === undefined ? {} : { name }), ...(overwrites === undefined ? {} : { overwrites }) };
}

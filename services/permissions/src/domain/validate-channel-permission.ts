import { FormErrors } from '@acs/validation';
import type { Overwrite } from './guild-model';
import { readBits, readOverwriteType } from './validate-create-channel';
import { getField, readModel, readRequired } from './validation/read-value';

/**
 * Validates the body of Edit Channel Permissions (D:resources/channel.mdx §Edit Channel
 * Permissions): `{allow?, deny?, type}`, the bit sets as strings (integers accepted, as
 * the OpenAPI file types them), absent or null meaning "0"; `type` 0 role / 1 member.
 * Throws 50035 with every problem.
 */
export function validateChannelPermission(body: unknown, overwriteId: string): Overwrite {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const type = readRequired(object, 'type', errors, readOverwriteType);
  const allow = readBits(getField(object, 'allow'), errors, ['allow']);
  const deny = readBits(getField(object, 'deny'), errors, ['deny']);
  if (errors.count > 0 || type === undefined || allow === undefined || deny === undefined) {
    throw errors.toError();
  }
  return { id: overwriteId, type, allow, deny };
}

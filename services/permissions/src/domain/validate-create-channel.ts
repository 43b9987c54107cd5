import { GUILD_CHANNEL_TYPES, isGuildChannelType, type ChannelType } from './channel-types';
import type { Overwrite, OverwriteType } from './guild-model';
import { MAX_CHANNEL_NAME_LENGTH, MAX_OVERWRITES_PER_CHANNEL, MIN_CHANNEL_NAME_LENGTH } from './limits';
import { ALL_PERMISSIONS } from './permission-flags';
import { ErrorCode } from './validation/error-codes';
import { FormErrors, MAX_BIT_SET, readBitSet, type ErrorPath } from '@acs/validation';
import {
  addChoicesError,
  getField,
  readInteger,
  readList,
  readModel,
  readOptional,
  readRequired,
  readSnowflake,
  textReader,
} from './validation/read-value';

/** A valid CreateChannel body (references to other channels and roles not yet checked). */
export interface CreateChannelInput {
  name: string;
  type: ChannelType;
  parentId: string | null;
  overwrites: Overwrite[];
}

const OVERWRITE_TYPES: readonly OverwriteType[] = [0, 1];

function readChannelType(value: unknown, errors: FormErrors, path: ErrorPath): ChannelType | undefined {
  const type = readInteger(value, errors, path);
  if (type === undefined) return undefined;
  if (isGuildChannelType(type)) return type;
  addChoicesError(GUILD_CHANNEL_TYPES, errors, path);
  return undefined;
}

/** An overwrite's `type`: 0 role or 1 member. */
export function readOverwriteType(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
): OverwriteType | undefined {
  const type = readInteger(value, errors, path);
  if (type === 0 || type === 1) return type;
  if (type !== undefined) addChoicesError(OVERWRITE_TYPES, errors, path);
  return undefined;
}

/** An overwrite's bit set (absent or null: none), masked to the known flags like role permissions. */
export function readBits(value: unknown, errors: FormErrors, path: ErrorPath): bigint | undefined {
  if (value === undefined || value === null) return 0n;
  const bits = readBitSet(value, MAX_BIT_SET, errors, path);
  return bits === undefined ? undefined : bits & ALL_PERMISSIONS;
}

function readOverwrite(value: unknown, errors: FormErrors, path: ErrorPath): Overwrite | undefined {
  const object = readModel(value, errors, path);
  if (!object) return undefined;
  const id = readRequired(object, 'id', errors, readSnowflake, path);
  const type = readRequired(object, 'type', errors, readOverwriteType, path);
  const allow = readBits(getField(object, 'allow'), errors, [...path, 'allow']);
  const deny = readBits(getField(object, 'deny'), errors, [...path, 'deny']);
  if (id === undefined || type === undefined || allow === undefined || deny === undefined) return undefined;
  return { id, type, allow, deny };
}

/** A list of overwrites (≤ 100, each target once). */
export function readOverwrites(value: unknown, errors: FormErrors, path: ErrorPath): Overwrite[] | undefined {
  const list = readList(value, errors, path);
  if (!list) return undefined;
  if (list.length > MAX_OVERWRITES_PER_CHANNEL) {
    errors.add(
      path,
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_OVERWRITES_PER_CHANNEL} or fewer in length.`,
    );
    return undefined;
  }
  const overwrites: Overwrite[] = [];
  const seen = new Set<string>();
  list.forEach((item, index) => {
    const overwrite = readOverwrite(item, errors, [...path, index]);
    if (!overwrite) return;
    if (seen.has(overwrite.id)) {
      errors.add(
        [...path, index, 'id'],
        ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
      return;
    }
    seen.add(overwrite.id);
    overwrites.push(overwrite);
  });
  return overwrites;
}

/**
 * Validates `{name (1-100), type (a guild channel type), parent_id?, permission_overwrites?
 * [{id, type 0 role / 1 member, allow?, deny?}]}` (ADMIN-API.md `POST
 * /admin/guilds/{id}/channels`); throws 50035 with every problem.
 */
export function validateCreateChannel(body: unknown): CreateChannelInput {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  const name = readRequired(
    object,
    'name',
    errors,
    textReader(MIN_CHANNEL_NAME_LENGTH, MAX_CHANNEL_NAME_LENGTH),
  );
  const type = readRequired(object, 'type', errors, readChannelType);
  const parentId = readOptional(object, 'parent_id', errors, readSnowflake) ?? null;
  const overwrites = readOptional(object, 'permission_overwrites', errors, readOverwrites) ?? [];
  if (errors.count > 0 || name === undefined || type === undefined) throw errors.toError();
  return { name, type, parentId, overwrites };
}

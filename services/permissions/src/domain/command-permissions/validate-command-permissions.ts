import { ErrorCode } from '../validation/error-codes';
import { FormErrors } from '@acs/validation';
import {
  addChoicesError,
  readList,
  readModel,
  readRequired,
  readSnowflake,
  type Reader,
} from '../validation/read-value';
import {
  CommandPermissionType,
  MAX_COMMAND_PERMISSIONS,
  type CommandPermission,
} from './command-permission-model';

const TYPES: readonly number[] = Object.values(CommandPermissionType);

const readType: Reader<CommandPermissionType> = (value, errors, path) => {
  if (typeof value === 'number' && TYPES.includes(value)) return value as CommandPermissionType;
  addChoicesError(TYPES, errors, path);
  return undefined;
};

const readBoolean: Reader<boolean> = (value, errors, path) => {
  if (typeof value === 'boolean') return value;
  errors.add(path, ErrorCode.BASE_TYPE_BOOLEAN, 'Must be either true or false.');
  return undefined;
};

/**
 * The body of PUT …/commands/{command}/permissions: `{permissions: [{id, type, permission}]}`
 * with at most 100 entries, each target once. Errors are 50035 at `permissions.<index>.<field>`.
 */
export function validateCommandPermissions(body: unknown): CommandPermission[] {
  const errors = new FormErrors();
  const object = readModel(body, errors, []);
  const list = object ? readRequired(object, 'permissions', errors, readList) : undefined;
  const result: CommandPermission[] = [];
  if (list && list.length > MAX_COMMAND_PERMISSIONS) {
    errors.add(
      ['permissions'],
      ErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_COMMAND_PERMISSIONS} or fewer in length.`,
    );
  } else if (list) {
    const seen = new Set<string>();
    list.forEach((item, index) => {
      const at = ['permissions', index];
      const entry = readModel(item, errors, at);
      if (!entry) return;
      const id = readRequired(entry, 'id', errors, readSnowflake, at);
      const type = readRequired(entry, 'type', errors, readType, at);
      const permission = readRequired(entry, 'permission', errors, readBoolean, at);
      if (id === undefined || type === undefined || permission === undefined) return;
      const key = `${type}:${id}`;
      if (seen.has(key)) {
        errors.add([...at, 'id'], ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE, 'Set already contains value');
        return;
      }
      seen.add(key);
      result.push({ id, type, permission });
    });
  }
  if (errors.count > 0) throw errors.toError();
  return result;
}

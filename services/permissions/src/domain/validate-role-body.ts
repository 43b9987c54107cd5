import { MAX_ROLE_NAME_LENGTH, MAX_ROLE_POSITION, MIN_ROLE_NAME_LENGTH } from './limits';
import { ALL_PERMISSIONS } from './permission-flags';
import { ErrorCode } from './validation/error-codes';
import { FormErrors, MAX_BIT_SET, readBitSet, type ErrorPath } from '@acs/validation';
import {
  readIntegerInRange,
  readModel,
  readOptional,
  readRequired,
  textReader,
  type JsonObject,
} from './validation/read-value';

/** A valid CreateRole body. */
export interface CreateRoleInput {
  name: string;
  permissions: bigint;
  position?: number;
}

/** A valid UpdateRole body: the fields to change. */
export interface UpdateRoleInput {
  name?: string;
  permissions?: bigint;
  position?: number;
}

/** The name of the @everyone role, which cannot change. */
export const EVERYONE_ROLE_NAME = '@everyone';

const readName = textReader(MIN_ROLE_NAME_LENGTH, MAX_ROLE_NAME_LENGTH);

// Bits beyond the known flags are dropped, as the real API ignores unknown permissions.
function readRolePermissions(value: unknown, errors: FormErrors, path: ErrorPath): bigint | undefined {
  const bits = readBitSet(value, MAX_BIT_SET, errors, path);
  return bits === undefined ? undefined : bits & ALL_PERMISSIONS;
}

// Position 0 belongs to @everyone; other roles sit above it.
function readPosition(value: unknown, errors: FormErrors, path: ErrorPath): number | undefined {
  return readIntegerInRange(value, 1, MAX_ROLE_POSITION, errors, path);
}

function readBody(body: unknown, errors: FormErrors): JsonObject {
  const object = readModel(body, errors, []);
  if (!object) throw errors.toError();
  return object;
}

/**
 * Validates `{name (1-100), permissions (decimal string or integer), position? (≥ 1)}`
 * (ADMIN-API.md `POST /admin/guilds/{id}/roles`); throws 50035 with every problem.
 */
export function validateCreateRole(body: unknown): CreateRoleInput {
  const errors = new FormErrors();
  const object = readBody(body, errors);
  const name = readRequired(object, 'name', errors, readName);
  const permissions = readRequired(object, 'permissions', errors, readRolePermissions);
  const position = readOptional(object, 'position', errors, readPosition);
  if (errors.count > 0 || name === undefined || permissions === undefined) throw errors.toError();
  return position === undefined ? { name, permissions } : { name, permissions, position };
}

/**
 * Validates an UpdateRole body: any of name, permissions, position. The @everyone role
 * keeps its name and position 0; only its permissions change.
 */
export function validateUpdateRole(body: unknown, isEveryone: boolean): UpdateRoleInput {
  const errors = new FormErrors();
  const object = readBody(body, errors);
  const input: UpdateRoleInput = {};
  const name = readOptional(object, 'name', errors, readName);
  const permissions = readOptional(object, 'permissions', errors, readRolePermissions);
  const position = isEveryone
    ? readOptional(object, 'position', errors, (v, e, p) => readIntegerInRange(v, 0, MAX_ROLE_POSITION, e, p))
    : readOptional(object, 'position', errors, readPosition);
  if (isEveryone && name !== undefined && name !== EVERYONE_ROLE_NAME) {
    errors.add(['name'], ErrorCode.ROLE_EVERYONE_IMMUTABLE, 'The @everyone role cannot be renamed.');
  }
  if (isEveryone && position !== undefined && position !== 0) {
    errors.add(
      ['position'],
      ErrorCode.ROLE_EVERYONE_IMMUTABLE,
      'The @everyone role is always at position 0.',
    );
  }
  if (errors.count > 0) throw errors.toError();
  if (name !== undefined && !isEveryone) input.name = name;
  if (permissions !== undefined) input.permissions = permissions;
  if (position !== undefined && !isEveryone) input.position = position;
  return input;
}

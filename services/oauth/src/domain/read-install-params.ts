import { readBitSet, type ErrorPath, type FormErrors } from '@acs/validation';
import {
  INSTALL_PARAMS_SCOPES,
  INTEGRATION_TYPES,
  MAX_INSTALL_PERMISSIONS,
  type IntegrationType,
} from './limits';
import { ErrorCode } from './error-codes';
import {
  addRequired,
  checkItemCount,
  describeValue,
  getField,
  isAbsent,
  readDict,
  readEnumSet,
  readModel,
} from './read-value';

/** What an install link asks for: its scopes and the bot's permissions (a decimal string). */
export interface InstallParams {
  scopes: Array<(typeof INSTALL_PARAMS_SCOPES)[number]>;
  permissions: string;
}

/** The integration types an application allows, each with the install params of its link. */
export interface IntegrationTypesConfig {
  types: IntegrationType[];
  installParams: Partial<Record<`${IntegrationType}`, InstallParams>>;
}

/**
 * `install_params` (OAS `ApplicationOAuth2InstallParams`): `scopes`, one or both of
 * `applications.commands` and `bot`, and `permissions`, an integer or a decimal string up
 * to 2^54 - 1 (0 when left out); null clears them.
 */
export function readInstallParams(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
): InstallParams | null | undefined {
  if (value === null) return null;
  const model = readModel(value, errors, path);
  if (!model) return undefined;
  const before = errors.count;
  let scopes: InstallParams['scopes'] | undefined;
  if (isAbsent(getField(model, 'scopes'))) addRequired(errors, [...path, 'scopes']);
  else {
    scopes = readEnumSet(getField(model, 'scopes'), INSTALL_PARAMS_SCOPES, errors, [...path, 'scopes']);
    if (scopes) checkItemCount(scopes, 1, INSTALL_PARAMS_SCOPES.length, errors, [...path, 'scopes']);
  }
  const permissions = readPermissions(getField(model, 'permissions'), errors, [...path, 'permissions']);
  if (errors.count !== before || !scopes || permissions === undefined) return undefined;
  return { scopes, permissions };
}

/**
 * `integration_types_config` (OAS): an object keyed by integration type (`"0"` guild,
 * `"1"` user install), one or both, each null or `{oauth2_install_params}`. The keys are
 * the application's integration types.
 */
export function readIntegrationTypesConfig(
  value: unknown,
  errors: FormErrors,
  path: ErrorPath,
): IntegrationTypesConfig | undefined {
  const dict = readDict(value, errors, path);
  if (!dict) return undefined;
  const before = errors.count;
  const keys = Object.keys(dict);
  if (!checkItemCount(keys, 1, INTEGRATION_TYPES.length, errors, path)) return undefined;
  const config: IntegrationTypesConfig = { types: [], installParams: {} };
  for (const key of keys) {
    const type = INTEGRATION_TYPES.find((t) => String(t) === key);
    if (type === undefined) {
      // At the object, not at a path named by the client's key.
      errors.add(path, ErrorCode.BASE_TYPE_CHOICES, `Key "${describeValue(key)}" must be one of ('0', '1').`);
      continue;
    }
    config.types.push(type);
    const entry = getField(dict, key);
    if (entry === null) continue;
    const model = readModel(entry, errors, [...path, key]);
    const params = model && getField(model, 'oauth2_install_params');
    if (isAbsent(params)) continue;
    const read = readInstallParams(params, errors, [...path, key, 'oauth2_install_params']);
    if (read) config.installParams[`${type}`] = read;
  }
  config.types.sort();
  return errors.count === before ? config : undefined;
}

/**
 * A permission set: an integer or a decimal string, 0 to 2^54 - 1, bounded before any
 * big-number work (@acs/validation `readBitSet`); '0' when absent.
 */
function readPermissions(value: unknown, errors: FormErrors, path: ErrorPath): string | undefined {
  if (isAbsent(value)) return '0';
  return readBitSet(value, MAX_INSTALL_PERMISSIONS, errors, path)?.toString();
}

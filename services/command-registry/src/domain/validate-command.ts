import { collectOptions } from './collect-options';
import { ApplicationCommandType as CommandType } from './command-enums';
import { InvalidFormBodyError } from './command-errors';
import { computeCommandSize } from './compute-command-size';
import { ErrorCode } from './error-codes';
import { FormErrors, type ErrorPath } from '@acs/validation';
import { EMBEDDED_FLAG, MAX_COMMAND_SIZE } from './limits';
import type { CommandContext, NormalizedCommand } from './normalized-command';
import { readContexts, readHandler, readIntegrationTypes, readPermissions } from './read-command-fields';
import { readLocalizations, type LocalizedValueCheck } from './read-localizations';
import {
  addChoicesError,
  getField,
  isAbsent,
  readBoolean,
  readInteger,
  readModel,
  readString,
  type JsonObject,
} from '@acs/validation';
import {
  CHAT_INPUT_NAME_RULE,
  DESCRIPTION_RULE,
  FREE_NAME_RULE,
  OPTIONAL_DESCRIPTION_RULE,
  checkText,
  readRequiredText,
} from './text-rules';

const COMMAND_TYPES: number[] = Object.values(CommandType);

/**
 * Validates one command body and records every error under `basePath` (the index of the
 * item in a bulk body, or [] for a single command). Client-supplied `id`,
 * `application_id`, `guild_id`, `version` and unknown fields are ignored. Returns the
 * normalized command, or undefined when an error was recorded.
 */
export function collectCommandErrors(
  input: unknown,
  ctx: CommandContext,
  errors: FormErrors,
  basePath: ErrorPath,
): NormalizedCommand | undefined {
  const model = readModel(input, errors, basePath);
  if (!model) return undefined;
  const before = errors.count;
  const at = (key: string): ErrorPath => [...basePath, key];

  const type = readCommandType(getField(model, 'type'), ctx, errors, at('type'));
  const nameRule = type === CommandType.CHAT_INPUT ? CHAT_INPUT_NAME_RULE : FREE_NAME_RULE;
  const name = readRequiredText(getField(model, 'name'), nameRule, errors, at('name'));
  const nameLocalizations = readLocalizations(
    getField(model, 'name_localizations'),
    name,
    (text, path) => checkText(text, nameRule, errors, path),
    errors,
    at('name_localizations'),
  );
  const description = readDescription(getField(model, 'description'), type, errors, at('description'));
  const descriptionLocalizations = readLocalizations(
    getField(model, 'description_localizations'),
    description,
    localizedDescriptionCheck(type, errors),
    errors,
    at('description_localizations'),
  );
  const options = readCommandOptions(getField(model, 'options'), type, errors, at('options'));
  const permissions = readPermissions(
    getField(model, 'default_member_permissions'),
    errors,
    at('default_member_permissions'),
  );
  const availability = ctx.scope === 'global' ? readGlobalOnlyFields(model, errors, basePath) : {};
  const rawNsfw = getField(model, 'nsfw');
  const nsfw = isAbsent(rawNsfw) ? false : readBoolean(rawNsfw, errors, at('nsfw'));
  const handler = readHandler(getField(model, 'handler'), type, errors, at('handler'));

  if (errors.count !== before) return undefined;
  const command: NormalizedCommand = {
    type: type as CommandType,
    name: name as string,
    name_localizations: nameLocalizations ?? null,
    description: description as string,
    description_localizations: descriptionLocalizations ?? null,
    ...(options && options.length > 0 ? { options } : {}),
    default_member_permissions: permissions ?? null,
    ...availability,
    nsfw: nsfw as boolean,
    ...(handler !== undefined ? { handler } : {}),
  };
  // A request-level error, as in the docs' "Request Error" example (facts §3.1).
  if (computeCommandSize(command) > MAX_COMMAND_SIZE) {
    errors.add(
      basePath,
      ErrorCode.APPLICATION_COMMAND_TOO_LARGE,
      `Command exceeds maximum size (${MAX_COMMAND_SIZE})`,
    );
    return undefined;
  }
  return command;
}

/** Validates one command body; throws InvalidFormBodyError carrying every error found. */
export function validateCommand(input: unknown, ctx: CommandContext): NormalizedCommand {
  const errors = new FormErrors();
  const command = collectCommandErrors(input, ctx, errors, []);
  if (!command || !errors.isEmpty()) throw new InvalidFormBodyError(errors);
  return command;
}

// Type defaults to CHAT_INPUT; PRIMARY_ENTRY_POINT is global-only and needs the EMBEDDED flag.
function readCommandType(
  raw: unknown,
  ctx: CommandContext,
  errors: FormErrors,
  path: ErrorPath,
): number | undefined {
  if (isAbsent(raw)) return CommandType.CHAT_INPUT;
  const type = readInteger(raw, errors, path);
  if (type === undefined) return undefined;
  if (!COMMAND_TYPES.includes(type)) {
    addChoicesError(COMMAND_TYPES, errors, path);
    return undefined;
  }
  if (type === CommandType.PRIMARY_ENTRY_POINT) {
    if (ctx.scope !== 'global') {
      errors.add(
        path,
        ErrorCode.APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID,
        'PRIMARY_ENTRY_POINT (4) commands can only be global; guild commands may be CHAT_INPUT (1), USER (2) or MESSAGE (3)',
      );
    } else if ((ctx.applicationFlags & EMBEDDED_FLAG) === 0) {
      errors.add(
        path,
        ErrorCode.APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_INVALID,
        'PRIMARY_ENTRY_POINT (4) commands are only allowed for applications with the EMBEDDED flag (1 << 17), i.e. with an Activity',
      );
    }
  }
  return type;
}

function isContextMenu(type: number | undefined): boolean {
  return type === CommandType.USER || type === CommandType.MESSAGE;
}

// CHAT_INPUT: required 1-100. USER/MESSAGE: absent or "" only, stored as "". Entry point: optional ≤ 100.
function readDescription(
  raw: unknown,
  type: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  if (type === CommandType.CHAT_INPUT) return readRequiredText(raw, DESCRIPTION_RULE, errors, path);
  if (isAbsent(raw)) return '';
  const text = readString(raw, errors, path);
  if (text === undefined) return undefined;
  if (isContextMenu(type)) {
    if (text === '') return '';
    addContextMenuDescriptionError(errors, path);
    return undefined;
  }
  return checkText(text, OPTIONAL_DESCRIPTION_RULE, errors, path) ? text : undefined;
}

function addContextMenuDescriptionError(errors: FormErrors, path: ErrorPath): void {
  errors.add(
    path,
    ErrorCode.APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID,
    'Context menu commands cannot have description',
  );
}

function localizedDescriptionCheck(type: number | undefined, errors: FormErrors): LocalizedValueCheck {
  if (isContextMenu(type)) {
    return (text, path) => {
      if (text === '') return true;
      addContextMenuDescriptionError(errors, path);
      return false;
    };
  }
  return (text, path) => checkText(text, DESCRIPTION_RULE, errors, path);
}

// D: "options can only be set for application commands of type CHAT_INPUT".
function readCommandOptions(raw: unknown, type: number | undefined, errors: FormErrors, path: ErrorPath) {
  if (type === CommandType.CHAT_INPUT) return collectOptions(raw, 'command', errors, path);
  if (!isAbsent(raw) && !(Array.isArray(raw) && raw.length === 0) && type !== undefined) {
    errors.add(
      path,
      ErrorCode.APPLICATION_COMMAND_OPTIONS_INVALID,
      'Only CHAT_INPUT (1) commands can have options',
    );
  }
  return undefined;
}

// Global-only fields; guild commands ignore them entirely (facts §7).
function readGlobalOnlyFields(
  model: JsonObject,
  errors: FormErrors,
  basePath: ErrorPath,
): Pick<NormalizedCommand, 'dm_permission' | 'contexts' | 'integration_types'> {
  const rawDm = getField(model, 'dm_permission');
  const dmPermission = isAbsent(rawDm) ? true : readBoolean(rawDm, errors, [...basePath, 'dm_permission']);
  const contexts = readContexts(getField(model, 'contexts'), errors, [...basePath, 'contexts']);
  const integrationTypes = readIntegrationTypes(getField(model, 'integration_types'), errors, [
    ...basePath,
    'integration_types',
  ]);
  return {
    ...(dmPermission !== undefined ? { dm_permission: dmPermission } : {}),
    ...(contexts !== undefined ? { contexts } : {}),
    ...(integrationTypes !== undefined ? { integration_types: integrationTypes } : {}),
  };
}

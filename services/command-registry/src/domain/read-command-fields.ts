// Readers for the command-level fields that are not text: permissions, the global-only
// availability fields, and the entry-point handler.
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  EntryPointCommandHandlerType,
  InteractionContextType,
} from './command-enums';
import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import { MAX_PERMISSIONS_VALUE } from './limits';
import { addChoicesError, isAbsent, readBitSet, readEnumSet, readInteger } from '@acs/validation';

/**
 * `default_member_permissions`: a permission bit set as a decimal string or an integer,
 * 0 ≤ n ≤ 2^54-1 (OAS), normalized to a decimal string; null when absent. Large values
 * should be sent as strings, since JSON numbers above 2^53 lose precision. The text is
 * bounded before any BigInt work (a megabyte of digits is one cheap NUMBER_TYPE_MAX).
 */
export function readPermissions(
  raw: unknown,
  errors: FormErrors,
  path: ErrorPath,
): string | null | undefined {
  if (isAbsent(raw)) return null;
  return readBitSet(raw, MAX_PERMISSIONS_VALUE, errors, path)?.toString();
}

// `contexts` and `integration_types` are sets with at least one member (OAS minItems 1, uniqueItems).
function readNonEmptySet<V extends number>(
  raw: unknown,
  allowed: readonly V[],
  errors: FormErrors,
  path: ErrorPath,
): V[] | undefined {
  const set = readEnumSet(raw, allowed, errors, path);
  if (set && set.length === 0) {
    errors.add(path, ErrorCode.BASE_TYPE_MIN_LENGTH, 'Must be 1 or more in length.');
    return undefined;
  }
  return set;
}

/** `contexts` (global only): a non-empty set of 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL, or null. */
export function readContexts(
  raw: unknown,
  errors: FormErrors,
  path: ErrorPath,
): InteractionContextType[] | null | undefined {
  if (isAbsent(raw)) return null;
  return readNonEmptySet(raw, Object.values(InteractionContextType), errors, path);
}

/** `integration_types` (global only): a non-empty set of 0 GUILD_INSTALL, 1 USER_INSTALL; default [0]. */
export function readIntegrationTypes(
  raw: unknown,
  errors: FormErrors,
  path: ErrorPath,
): ApplicationIntegrationType[] | undefined {
  if (isAbsent(raw)) return [ApplicationIntegrationType.GUILD_INSTALL];
  return readNonEmptySet(raw, Object.values(ApplicationIntegrationType), errors, path);
}

/**
 * `handler`: only on PRIMARY_ENTRY_POINT, 1 APP_HANDLER or 2 DISCORD_LAUNCH_ACTIVITY,
 * default 1. Elsewhere any non-null value is an error; the result is then undefined.
 */
export function readHandler(
  raw: unknown,
  type: number | undefined,
  errors: FormErrors,
  path: ErrorPath,
): EntryPointCommandHandlerType | undefined {
  if (type !== ApplicationCommandType.PRIMARY_ENTRY_POINT) {
    if (!isAbsent(raw)) {
      errors.add(
        path,
        ErrorCode.APPLICATION_COMMAND_HANDLER_INVALID,
        'handler can only be set on PRIMARY_ENTRY_POINT (4) commands',
      );
    }
    return undefined;
  }
  if (isAbsent(raw)) return EntryPointCommandHandlerType.APP_HANDLER;
  const handler = readInteger(raw, errors, path);
  if (handler === undefined) return undefined;
  const allowed: number[] = Object.values(EntryPointCommandHandlerType);
  if (!allowed.includes(handler)) {
    addChoicesError(allowed, errors, path);
    return undefined;
  }
  return handler as EntryPointCommandHandlerType;
}

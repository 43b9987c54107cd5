import { FormErrors, type ErrorPath } from '@acs/validation';

/**
 * Inner codes of the 400 / 50035 answers to an invocation, as Discord's client reads them
 * (A9: the client reloads its command index on the first two).
 */
export const InvocationErrorCode = {
  INVALID: 'INTERACTION_APPLICATION_COMMAND_INVALID',
  INVALID_VERSION: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION',
  OPTION_INVALID: 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID',
  OPTION_MISSING: 'INTERACTION_APPLICATION_COMMAND_OPTION_MISSING',
} as const;

/** The messages that go with them. */
export const InvocationErrorMessage = {
  UNKNOWN_COMMAND: 'Unknown application command',
  OUTDATED: 'This command is outdated, please try again in a few minutes',
  OPTION_MISSING: 'Missing interaction application command option',
  NO_PERMISSION: 'You do not have permission to use this command here',
  CONTEXT: 'This command cannot be used in this context',
  NOT_INSTALLED: 'This application is not installed where this command can be used',
  NSFW: 'This command can only be used in age-restricted channels',
} as const;

/** Throws 400 / 50035 with one error at `path`. */
export function throwInvocationError(path: ErrorPath, code: string, message: string): never {
  const errors = new FormErrors();
  errors.add(path, code, message);
  throw errors.toError();
}

import { DiscordError, type ErrorTree } from '@acs/discord-errors';
import { FormErrors } from '@acs/validation';
import { MAX_DAILY_CREATES } from './limits';

/** 400 / 50035: the body broke one or more rules; `errors` says where and why. */
export class InvalidFormBodyError extends DiscordError {
  constructor(errors: ErrorTree | FormErrors) {
    super(400, 50035, 'Invalid Form Body', errors instanceof FormErrors ? errors.toJSON() : errors);
  }
}

/** 404 / 10063: no command with that id in that scope. */
export class UnknownCommandError extends DiscordError {
  constructor() {
    super(404, 10063, 'Unknown application command');
  }
}

/** 400 / 40041: a rename would give the command the name of another of the same type. */
export class CommandNameTakenError extends DiscordError {
  constructor() {
    super(400, 40041, 'An application command with that name already exists');
  }
}

/** 400 / 30032: the scope already holds the maximum of commands of that type (100, 15, 15 or 1). */
export class MaxCommandsError extends DiscordError {
  constructor(readonly limit: number) {
    super(400, 30032, `Maximum number of application commands reached (${limit})`);
  }
}

/** 400 / 30034: the scope created its 200 new commands today. */
export class MaxDailyCreatesError extends DiscordError {
  constructor(readonly limit: number = MAX_DAILY_CREATES) {
    super(400, 30034, `Max number of daily application command creates has been reached (${limit})`);
  }
}

/**
 * 400 / 50240: a bulk overwrite would delete the app's entry point command. Discord refuses
 * the whole request; the entry point is kept by including it, or deleted on its own.
 */
export class EntryPointBulkRemovalError extends DiscordError {
  constructor() {
    super(
      400,
      50240,
      "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
    );
  }
}

export { MalformedJsonError, MissingAccessError } from '@acs/discord-errors';

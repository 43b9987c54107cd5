import { DiscordError, UnknownResourceError } from '@acs/discord-errors';

/** 404 / 10066: the command (or app) has no permissions in that guild. */
export class UnknownCommandPermissionsError extends UnknownResourceError {
  constructor() {
    super(10066, 'Unknown application command permissions');
  }
}

/** 404 / 10063: no such command of the app in the guild (global or guild). */
export class UnknownCommandError extends UnknownResourceError {
  constructor() {
    super(10063, 'Unknown application command');
  }
}

/** 403 / 50013: the editor may not set these overwrites; the message says which rule (D: "can run the command, and can manage the affected entities"). */
export class CannotEditCommandPermissionsError extends DiscordError {
  constructor(reason: string) {
    super(403, 50013, `Missing Permissions: ${reason}`);
  }
}

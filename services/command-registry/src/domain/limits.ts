// The limits of the application-command specification, in one place.
// Sources: D:interactions/application-commands.mdx and the OAS request schemas.

/** Options (or subcommands / groups) in one `options` array. */
export const MAX_OPTIONS_PER_LEVEL = 25;
/** Choices of one option. */
export const MAX_CHOICES = 25;
/** Combined characters of names, descriptions and choice values of one command. */
export const MAX_COMMAND_SIZE = 8000;

/** Commands of each type in one scope (global, or one guild). */
export const MAX_CHAT_INPUT_COMMANDS = 100;
export const MAX_USER_COMMANDS = 15;
export const MAX_MESSAGE_COMMANDS = 15;
export const MAX_ENTRY_POINT_COMMANDS = 1;
/** The per-scope cap of each command type, keyed by type (1 CHAT_INPUT … 4 PRIMARY_ENTRY_POINT). */
export const MAX_COMMANDS_BY_TYPE: Readonly<Record<1 | 2 | 3 | 4, number>> = {
  1: MAX_CHAT_INPUT_COMMANDS,
  2: MAX_USER_COMMANDS,
  3: MAX_MESSAGE_COMMANDS,
  4: MAX_ENTRY_POINT_COMMANDS,
};

/** New commands a scope may create per day (bulk: only commands that did not exist). */
export const MAX_DAILY_CREATES = 200;
/** Guilds in one page of the ACS-only guild command index (as GET /users/@me/guilds' `limit`). */
export const MAX_COMMAND_GUILDS = 200;
/** Items of a bulk-overwrite body (OAS `maxItems`). */
export const MAX_BULK_COMMANDS = 130;

export const MIN_NAME_LENGTH = 1;
export const MAX_NAME_LENGTH = 32;
export const MIN_DESCRIPTION_LENGTH = 1;
export const MAX_DESCRIPTION_LENGTH = 100;
export const MIN_CHOICE_NAME_LENGTH = 1;
export const MAX_CHOICE_NAME_LENGTH = 100;
/** Docs say 100 for string choice values (the OAS says 6000; we follow the docs). */
export const MAX_CHOICE_STRING_VALUE_LENGTH = 100;

/** Bounds of `min_length` / `max_length` on STRING options. */
export const MIN_MIN_LENGTH = 0;
export const MIN_MAX_LENGTH = 1;
export const MAX_STRING_OPTION_LENGTH = 6000;

/** INTEGER options and choices: -2^53+1 .. 2^53-1. */
export const MIN_INTEGER_VALUE = -(2 ** 53) + 1;
export const MAX_INTEGER_VALUE = 2 ** 53 - 1;
/** NUMBER options and choices: -2^53 .. 2^53. */
export const MIN_NUMBER_VALUE = -(2 ** 53);
export const MAX_NUMBER_VALUE = 2 ** 53;

/** `default_member_permissions` bit set upper bound (OAS: 2^54 - 1). */
export const MAX_PERMISSIONS_VALUE = 2n ** 54n - 1n;

/** `file_types` entries of an ATTACHMENT option. */
export const MAX_FILE_TYPES = 10;
/** Characters of one `file_types` entry (ours: entries count toward no size cap, so each is bounded). */
export const MAX_FILE_TYPE_LENGTH = 32;

/** Application flag that allows PRIMARY_ENTRY_POINT commands (apps with an Activity). */
export const EMBEDDED_FLAG = 1 << 17;

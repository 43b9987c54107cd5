import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/** A command as its events name it, with the version after the change. */
const commandFields = {
  application_id: snowflake,
  /** Null for a global command. */
  guild_id: snowflake.nullable(),
  command_id: snowflake,
  type: z.number().int(),
  name: z.string(),
  version: snowflake,
};

/** A command was deleted (alone, or left out of a bulk overwrite): its permissions go too. */
export const commandDeleted = z.object(commandFields);

/**
 * A command was renamed: its permissions written before `version` go (D: "renaming a
 * command deletes its permissions").
 */
export const commandRenamed = z.object({ ...commandFields, previous_name: z.string() });

/**
 * A scope's commands changed (created, edited, renamed or deleted, alone or by a bulk
 * overwrite): caches of its commands (interactions' invocable-command cache) drop the
 * application's entries. Published with the change, in its transaction's outbox.
 */
export const commandScopeChanged = z.object({
  application_id: snowflake,
  /** Null for the global scope. */
  guild_id: snowflake.nullable(),
});

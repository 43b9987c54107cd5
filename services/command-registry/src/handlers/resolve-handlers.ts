import type { commandRegistry } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import type { CommandLookup } from '../store/command-lookup';

/** What the resolve handler needs. */
export interface ResolveHandlerDeps {
  lookup: CommandLookup;
}

/**
 * `ResolveCommands`, for permissions: which of the given ids are still the app's commands
 * in a guild (global or that guild's), under which name, not renamed since when.
 */
export function createResolveHandlers({ lookup }: ResolveHandlerDeps) {
  return {
    async ResolveCommands(req: commandRegistry.ResolveCommandsRequest__Output) {
      const found = await lookup.resolve(
        readPathSnowflake('application_id', req.application_id),
        readPathSnowflake('guild_id', req.guild_id),
        req.command_ids.map((id) => readPathSnowflake('command_ids', id)),
      );
      return {
        commands: found.map((c) => ({
          id: c.id,
          name: c.name,
          default_member_permissions: c.defaultMemberPermissions ?? '',
          guild_id: c.guildId,
          version: c.version,
          named_version: c.namedVersion,
        })),
      };
    },
  };
}

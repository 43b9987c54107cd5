import type { commandRegistry } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import type { CommandLookup, CommandSummary } from '../store/command-lookup';

/** What the resolve handler needs. */
export interface ResolveHandlerDeps {
  lookup: CommandLookup;
}

/**
 * `ResolveCommands`: which of the given ids (with `all`, which commands) are still the
 * app's commands in a guild (global or that guild's), under which name, not renamed since
 * when. Its callers (api-gateway) pass the answer to permissions, which calls no service.
 */
export function createResolveHandlers({ lookup }: ResolveHandlerDeps) {
  return {
    async ResolveCommands(req: commandRegistry.ResolveCommandsRequest__Output) {
      const found = await lookup.resolve(
        readPathSnowflake('application_id', req.application_id),
        readPathSnowflake('guild_id', req.guild_id),
        req.all ? 'all' : req.command_ids.map((id) => readPathSnowflake('command_ids', id)),
      );
      return { commands: found.map(toResolvedCommand) };
    },
  };
}

/** A command as `ResolveCommands` (and the picker's index, for permissions) describes it. */
export function toResolvedCommand(c: CommandSummary): commandRegistry.ResolvedCommand {
  return {
    id: c.id,
    application_id: c.applicationId,
    name: c.name,
    default_member_permissions: c.defaultMemberPermissions ?? '',
    guild_id: c.guildId,
    version: c.version,
    named_version: c.namedVersion,
  };
}

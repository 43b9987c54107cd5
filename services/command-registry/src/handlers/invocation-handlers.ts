import type { commandRegistry } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import type { CommandLookup } from '../store/command-lookup';
import { renderCommand } from '../store/render-command';

/** What the invocation handler needs. */
export interface InvocationHandlerDeps {
  lookup: CommandLookup;
}

/**
 * `GetInvocableCommand`, for the interactions service: the command a user invokes, found
 * among the app's global commands and its commands in the guild of the invocation, as
 * `GetCommand` answers it, with what the permissions decision needs.
 */
export function createInvocationHandlers({ lookup }: InvocationHandlerDeps) {
  return {
    async GetInvocableCommand(req: commandRegistry.GetInvocableCommandRequest__Output) {
      const found = await lookup.findInvocable(
        readPathSnowflake('application_id', req.application_id),
        req.guild_id === '' ? '' : readPathSnowflake('guild_id', req.guild_id),
        readPathSnowflake('command_id', req.command_id),
      );
      return {
        command_json: JSON.stringify(renderCommand(found.stored)),
        guild_id: found.stored.guildId,
        named_version: found.namedVersion,
      };
    },
  };
}

import type { commandRegistry } from '@acs/protos';
import { callUnary, fromGrpcError } from '@acs/service-kit';

/** A command as command-registry knows it now. */
export interface ResolvedCommand {
  id: string;
  name: string;
  version: string;
  /** The version at which the command got its current name (its first, or its latest rename's). */
  namedVersion: string;
  /** null when the command has none (everyone may use it by default). */
  defaultMemberPermissions: bigint | null;
}

/** What permissions asks command-registry: which of these commands exist now, named how and since when. */
export interface CommandDirectory {
  /** The app's commands among `commandIds` that exist in the guild (global or that guild's), by id. */
  resolve(
    applicationId: string,
    guildId: string,
    commandIds: readonly string[],
  ): Promise<Map<string, ResolvedCommand>>;
}

/** The CommandDirectory over command-registry's `ResolveCommands` RPC. */
export function createCommandDirectory(
  client: commandRegistry.CommandRegistryServiceClient,
): CommandDirectory {
  return {
    async resolve(applicationId, guildId, commandIds) {
      if (commandIds.length === 0) return new Map();
      let answer: commandRegistry.ResolveCommandsResponse__Output;
      try {
        answer = await callUnary(client, client.ResolveCommands, {
          application_id: applicationId,
          guild_id: guildId,
          command_ids: [...commandIds],
        });
      } catch (error) {
        throw fromGrpcError(error) ?? error;
      }
      return new Map(
        answer.commands.map((c) => [
          c.id,
          {
            id: c.id,
            name: c.name,
            version: c.version,
            // A registry older than the field sends none: then the name alone decides, as it did.
            namedVersion: c.named_version === '' ? '0' : c.named_version,
            defaultMemberPermissions:
              c.default_member_permissions === '' ? null : BigInt(c.default_member_permissions),
          },
        ]),
      );
    },
  };
}

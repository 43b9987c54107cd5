import type { commandRegistry } from '@acs/protos';
import { DiscordError } from '@acs/discord-errors';
import { callPeer } from '@acs/service-kit';
import type { InvocableCommand, JsonRecord } from '../domain/invocation/invocation-facts';

/**
 * What interactions asks of command-registry: the command an invocation names. A failure
 * it answers with its own error rejects with that DiscordError; one in transport with 503
 * or 504.
 */
export interface CommandRegistryClient {
  /**
   * The application's command `commandId` among its global commands and its commands in
   * `guildId` (when set); undefined when there is no such command there. `sentVersion`,
   * the version the invoker's client holds, lets a cache in front of it ask again when
   * what it remembers is another version (command-registry itself ignores it).
   */
  invocableCommand(
    applicationId: string,
    guildId: string | null,
    commandId: string,
    sentVersion?: string,
  ): Promise<InvocableCommand | undefined>;
}

/** The CommandRegistryClient over command-registry's gRPC client. */
export function createCommandRegistryClient(
  client: commandRegistry.CommandRegistryServiceClient,
): CommandRegistryClient {
  return {
    async invocableCommand(applicationId, guildId, commandId) {
      try {
        const answer = await callPeer<
          commandRegistry.GetInvocableCommandRequest,
          commandRegistry.GetInvocableCommandResponse__Output
        >(client, client.GetInvocableCommand, {
          application_id: applicationId,
          guild_id: guildId ?? '',
          command_id: commandId,
        });
        return {
          command: JSON.parse(answer.command_json) as JsonRecord,
          guildId: answer.guild_id === '' ? null : answer.guild_id,
          namedVersion: answer.named_version,
        };
      } catch (error) {
        if (error instanceof DiscordError && error.httpStatus === 404) return undefined;
        throw error;
      }
    },
  };
}

import type { commandRegistry } from '@acs/protos';
import type { IndexedApplication, IndexedCommand, RegisteredCommand } from '../domain/command-index';
import { callPeer } from './call-peer';
import { checkServing } from './check-serving';

/** Whose commands: an application's global ones, or its commands in one guild. */
export interface CommandScope {
  applicationId: string;
  /** Absent for global commands. */
  guildId?: string;
}

/**
 * What api-gateway asks of command-registry: an application's commands (bodies are
 * forwarded as received and checked there, with the application's flags), the EMBEDDED
 * entry point, and a guild's command index. Commands come back as JSON text, passed on
 * as is. A failure command-registry answers with its own error rejects with that
 * DiscordError; one in transport with 503 or 504.
 */
export interface CommandRegistryClient {
  /** Whether command-registry reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** The commands, localized for `locale` ('' for none) or with every localization. */
  listCommands(scope: CommandScope, options: { withLocalizations: boolean; locale: string }): Promise<string>;
  getCommand(scope: CommandScope, commandId: string): Promise<string>;
  /** Creates the command, or updates the one of the same name and type (`created` false). */
  createCommand(
    scope: CommandScope,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<{ commandJson: string; created: boolean }>;
  /** Replaces every command of the scope with the body's list; the new list. */
  overwriteCommands(scope: CommandScope, bodyJson: string, applicationFlags: number): Promise<string>;
  editCommand(
    scope: CommandScope,
    commandId: string,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<string>;
  deleteCommand(scope: CommandScope, commandId: string): Promise<void>;
  /** Creates an EMBEDDED application's `Launch` entry point command when it has none. */
  ensureEntryPoint(applicationId: string, applicationFlags: number): Promise<void>;
  /**
   * Every command of the applications installed in the guild, localized, with those
   * applications; and the same commands as registered (what permissions decides with).
   */
  guildCommandIndex(
    guildId: string,
    locale: string,
  ): Promise<{
    commands: IndexedCommand[];
    applications: IndexedApplication[];
    registered: RegisteredCommand[];
  }>;
}

/** The ids of a scope as command-registry's requests carry them ('' for global). */
function wireScope(scope: CommandScope) {
  return { application_id: scope.applicationId, guild_id: scope.guildId ?? '' };
}

/** The CommandRegistryClient over command-registry's gRPC client. */
export function createCommandRegistryClient(
  client: commandRegistry.CommandRegistryServiceClient,
): CommandRegistryClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async listCommands(scope, { withLocalizations, locale }) {
      const answer = await callPeer(client, client.ListCommands, {
        ...wireScope(scope),
        with_localizations: withLocalizations,
        locale,
      });
      return answer.commands_json;
    },

    async getCommand(scope, commandId) {
      const answer = await callPeer(client, client.GetCommand, {
        ...wireScope(scope),
        command_id: commandId,
      });
      return answer.command_json;
    },

    async createCommand(scope, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.CreateCommand, {
        ...wireScope(scope),
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return { commandJson: answer.command_json, created: answer.created };
    },

    async overwriteCommands(scope, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.BulkOverwriteCommands, {
        ...wireScope(scope),
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return answer.commands_json;
    },

    async editCommand(scope, commandId, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.EditCommand, {
        ...wireScope(scope),
        command_id: commandId,
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return answer.command_json;
    },

    async deleteCommand(scope, commandId) {
      await callPeer(client, client.DeleteCommand, { ...wireScope(scope), command_id: commandId });
    },

    async ensureEntryPoint(applicationId, applicationFlags) {
      await callPeer(client, client.EnsureEntryPoint, {
        application_id: applicationId,
        application_flags: applicationFlags,
      });
    },

    async guildCommandIndex(guildId, locale) {
      const answer = await callPeer(client, client.ListGuildCommandIndex, { guild_id: guildId, locale });
      return {
        commands: JSON.parse(answer.commands_json) as IndexedCommand[],
        applications: JSON.parse(answer.applications_json) as IndexedApplication[],
        registered: answer.commands.map((c) => ({
          applicationId: c.application_id,
          commandId: c.id,
          name: c.name,
          defaultMemberPermissions: c.default_member_permissions,
          version: c.version,
          namedVersion: c.named_version,
        })),
      };
    },
  };
}

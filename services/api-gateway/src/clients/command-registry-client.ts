import type { commandRegistry } from '@acs/protos';
import type { IndexedApplication, IndexedCommand, RegisteredCommand } from '../domain/command-index';
import { callPeer } from '@acs/service-kit';
import type { CreateQuota } from '../domain/command-sync-headers';
import { checkServing } from './check-serving';

export type { CreateQuota };

/** Whose commands: an application's global ones, or its commands in one guild. */
export interface CommandScope {
  applicationId: string;
  /** Absent for global commands. */
  guildId?: string;
}

/** A guild where an application has guild commands (ACS-only index). */
export interface CommandGuild {
  guildId: string;
  counts: { chatInput: number; user: number; message: number };
  latestVersion: string;
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
  /**
   * The commands, localized for `locale` ('' for none) or with every localization. Every
   * answer about a scope carries its create quota when command-registry sent one.
   */
  listCommands(
    scope: CommandScope,
    options: { withLocalizations: boolean; locale: string },
  ): Promise<{ commandsJson: string; quota?: CreateQuota }>;
  getCommand(scope: CommandScope, commandId: string): Promise<{ commandJson: string; quota?: CreateQuota }>;
  /** Creates the command, or updates the one of the same name and type (`created` false). */
  createCommand(
    scope: CommandScope,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<{ commandJson: string; created: boolean; quota?: CreateQuota }>;
  /** Replaces every command of the scope with the body's list; the new list, and whether anything changed. */
  overwriteCommands(
    scope: CommandScope,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<{ commandsJson: string; changed: boolean; quota?: CreateQuota }>;
  /** ACS-only: what overwriteCommands would do, as the dry run's JSON body; nothing written. */
  previewOverwrite(
    scope: CommandScope,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<{ diffJson: string; changed: boolean; quota?: CreateQuota }>;
  editCommand(
    scope: CommandScope,
    commandId: string,
    bodyJson: string,
    applicationFlags: number,
  ): Promise<{ commandJson: string; quota?: CreateQuota }>;
  deleteCommand(scope: CommandScope, commandId: string): Promise<{ quota?: CreateQuota }>;
  /** ACS-only: the scope's create quota as it stands. */
  createQuota(scope: CommandScope): Promise<CreateQuota | undefined>;
  /** ACS-only: the guilds where the application has commands, by id after `after` ('' = first). */
  commandGuilds(applicationId: string, after: string, limit: number): Promise<CommandGuild[]>;
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
  /**
   * The application's commands in the guild (global and that guild's) as registered: those
   * among `commandIds` (none asked, none answered), or `'all'` of them. permissions calls no
   * other service: whoever asks it about commands asks the registry first and passes this on.
   */
  resolveCommands(
    applicationId: string,
    guildId: string,
    commandIds: readonly string[] | 'all',
  ): Promise<RegisteredCommand[]>;
}

/** A command as command-registry describes it (`ResolvedCommand`), as permissions decides with it. */
function toRegistered(command: commandRegistry.ResolvedCommand__Output): RegisteredCommand {
  return {
    applicationId: command.application_id,
    commandId: command.id,
    name: command.name,
    defaultMemberPermissions: command.default_member_permissions,
    version: command.version,
    namedVersion: command.named_version,
  };
}

/** The ids of a scope as command-registry's requests carry them ('' for global). */
function wireScope(scope: CommandScope) {
  return { application_id: scope.applicationId, guild_id: scope.guildId ?? '' };
}

/** A quota as command-registry sent it; undefined when it sent none. */
function quotaOf(quota: commandRegistry.CreateQuota__Output | null): CreateQuota | undefined {
  return quota ? { remaining: quota.remaining, resetAfterMs: Number(quota.reset_after_ms) } : undefined;
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
      return { commandsJson: answer.commands_json, quota: quotaOf(answer.quota) };
    },

    async getCommand(scope, commandId) {
      const answer = await callPeer(client, client.GetCommand, {
        ...wireScope(scope),
        command_id: commandId,
      });
      return { commandJson: answer.command_json, quota: quotaOf(answer.quota) };
    },

    async createCommand(scope, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.CreateCommand, {
        ...wireScope(scope),
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return { commandJson: answer.command_json, created: answer.created, quota: quotaOf(answer.quota) };
    },

    async overwriteCommands(scope, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.BulkOverwriteCommands, {
        ...wireScope(scope),
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return { commandsJson: answer.commands_json, changed: answer.changed, quota: quotaOf(answer.quota) };
    },

    async previewOverwrite(scope, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.PreviewBulkOverwrite, {
        ...wireScope(scope),
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return { diffJson: answer.diff_json, changed: answer.changed, quota: quotaOf(answer.quota) };
    },

    async editCommand(scope, commandId, bodyJson, applicationFlags) {
      const answer = await callPeer(client, client.EditCommand, {
        ...wireScope(scope),
        command_id: commandId,
        body_json: bodyJson,
        application_flags: applicationFlags,
      });
      return { commandJson: answer.command_json, quota: quotaOf(answer.quota) };
    },

    async deleteCommand(scope, commandId) {
      const answer = await callPeer(client, client.DeleteCommand, {
        ...wireScope(scope),
        command_id: commandId,
      });
      return { quota: quotaOf(answer.quota) };
    },

    async createQuota(scope) {
      const answer = await callPeer(client, client.GetCreateQuota, wireScope(scope));
      return quotaOf(answer.quota);
    },

    async commandGuilds(applicationId, after, limit) {
      const answer = await callPeer(client, client.ListCommandGuilds, {
        application_id: applicationId,
        after,
        limit,
      });
      return answer.guilds.map((g) => ({
        guildId: g.guild_id,
        counts: { chatInput: g.chat_input, user: g.user, message: g.message },
        latestVersion: g.latest_version,
      }));
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
        registered: answer.commands.map(toRegistered),
      };
    },

    async resolveCommands(applicationId, guildId, commandIds) {
      if (commandIds !== 'all' && commandIds.length === 0) return [];
      const answer = await callPeer(client, client.ResolveCommands, {
        application_id: applicationId,
        guild_id: guildId,
        command_ids: commandIds === 'all' ? [] : [...commandIds],
        all: commandIds === 'all',
      });
      // Asked for one app: its commands are that app's.
      return answer.commands.map((c) => toRegistered({ ...c, application_id: applicationId }));
    },
  };
}

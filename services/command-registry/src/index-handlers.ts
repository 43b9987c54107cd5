import type { commandRegistry, oauth as oauthTypes } from '@acs/protos';
import { callUnary, fromGrpcError } from '@acs/service-kit';
import { readPathSnowflake } from '@acs/discord-errors';
import type { CommandLookup } from './store/command-lookup';

/** What the cross-scope handlers need. */
export interface IndexHandlerDependencies {
  lookup: CommandLookup;
  oauth: oauthTypes.OAuthServiceClient;
}

/** Scopes that let an app's commands run in a guild. */
const COMMAND_SCOPES = ['applications.commands', 'bot'];

/**
 * The RPCs other services use across scopes: `ResolveCommands` (permissions checks that
 * the commands its overwrites belong to still exist, under the same name, not renamed
 * since) and `ListGuildCommandIndex` (the command picker: every installed app's commands
 * in a guild).
 */
export function createIndexHandlers({ lookup, oauth }: IndexHandlerDependencies) {
  /** The apps installed in the guild with a scope that lets their commands run there, by id (one oauth call). */
  async function installed(guildId: string): Promise<Map<string, oauthTypes.InstalledApplication__Output>> {
    let answer: oauthTypes.ListGuildInstallationsResponse__Output;
    try {
      answer = await callUnary(oauth, oauth.ListGuildInstallations, { guild_id: guildId });
    } catch (error) {
      throw fromGrpcError(error) ?? error;
    }
    return new Map(
      answer.installations
        .filter((i) => i.scopes.some((s) => COMMAND_SCOPES.includes(s)))
        .map((i) => [i.application_id, i]),
    );
  }

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

    async ListGuildCommandIndex(req: commandRegistry.ListGuildCommandIndexRequest__Output) {
      const guildId = readPathSnowflake('guild_id', req.guild_id);
      const [apps, withCommands] = await Promise.all([
        installed(guildId),
        lookup.applicationsWithCommands(guildId),
      ]);
      const shown = withCommands.flatMap((id) => apps.get(id) ?? []);
      const commands = await lookup.listForGuild(
        shown.map((a) => a.application_id),
        guildId,
        req.locale,
      );
      return {
        applications_json: JSON.stringify(shown.map(pickApplication)),
        commands_json: JSON.stringify(commands),
      };
    },
  };
}

/** The application fields the picker shows (as the real index's `applications`). */
function pickApplication(app: oauthTypes.InstalledApplication__Output): Record<string, unknown> {
  // oauth keeps no description or icon yet (its application object shows '' and null).
  return { id: app.application_id, name: app.name, description: '', icon: null, bot_id: app.bot_id };
}

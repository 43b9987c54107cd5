import type { commandRegistry } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import { allowsCommands } from '../domain/allows-commands';
import { MAX_COMMAND_GUILDS } from '../domain/limits';
import type { GuildInstallation, OAuthClient } from '../clients/oauth-client';
import type { CommandLookup } from '../store/command-lookup';
import { toResolvedCommand } from './resolve-handlers';

/** What the command picker's handler needs. */
export interface CommandIndexHandlerDeps {
  lookup: CommandLookup;
  oauth: OAuthClient;
}

/**
 * `ListGuildCommandIndex`, the command picker: every installed app's commands in a guild,
 * across scopes (global, then the guild's); and `ListCommandGuilds` (ACS-only), the guilds
 * where one app has commands.
 */
export function createCommandIndexHandlers({ lookup, oauth }: CommandIndexHandlerDeps) {
  /** The apps installed in the guild with a scope that lets their commands run there, by id (one oauth call). */
  async function installed(guildId: string): Promise<Map<string, GuildInstallation>> {
    const installations = await oauth.listGuildInstallations(guildId);
    return new Map(installations.filter((i) => allowsCommands(i.scopes)).map((i) => [i.applicationId, i]));
  }

  return {
    async ListGuildCommandIndex(req: commandRegistry.ListGuildCommandIndexRequest__Output) {
      const guildId = readPathSnowflake('guild_id', req.guild_id);
      const [apps, withCommands] = await Promise.all([
        installed(guildId),
        lookup.applicationsWithCommands(guildId),
      ]);
      const shown = withCommands.flatMap((id) => apps.get(id) ?? []);
      const commands = await lookup.listForGuild(
        shown.map((a) => a.applicationId),
        guildId,
        req.locale,
      );
      return {
        applications_json: JSON.stringify(shown.map(pickApplication)),
        commands_json: JSON.stringify(commands.map((c) => c.command)),
        // The same commands as ResolveCommands describes them: what permissions decides with.
        commands: commands.map((c) => toResolvedCommand(c.summary)),
      };
    },

    /** ACS-only: the guilds where an application has guild commands, with counts per type. */
    async ListCommandGuilds(req: commandRegistry.ListCommandGuildsRequest__Output) {
      const applicationId = readPathSnowflake('application_id', req.application_id);
      const after = req.after === '' ? '' : readPathSnowflake('after', req.after);
      const limit = Math.min(Math.max(Number(req.limit) || MAX_COMMAND_GUILDS, 1), MAX_COMMAND_GUILDS);
      const guilds = await lookup.commandGuilds(applicationId, after, limit);
      return {
        guilds: guilds.map((g) => ({
          guild_id: g.guildId,
          chat_input: g.counts.chatInput,
          user: g.counts.user,
          message: g.counts.message,
          latest_version: g.latestVersion,
        })),
      };
    },
  };
}

/** The application fields the picker shows (as the real index's `applications`). */
function pickApplication(app: GuildInstallation): Record<string, unknown> {
  // oauth keeps no description or icon yet (its application object shows '' and null).
  return { id: app.applicationId, name: app.name, description: '', icon: null, bot_id: app.botId };
}

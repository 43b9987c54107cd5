import type { Pool } from 'pg';
import { localizeCommand, UnknownCommandError, type NormalizedCommand } from '../domain';
import { renderCommand } from './render-command';
import type { StoredCommand } from './stored-command';

/** A command as other services need to know it: identity, name and default permissions. */
export interface CommandSummary {
  id: string;
  applicationId: string;
  /** '' for a global command. */
  guildId: string;
  name: string;
  version: string;
  /** The version at which it got its current name (its first, or its latest rename's). */
  namedVersion: string;
  defaultMemberPermissions: string | null;
}

interface SummaryRow {
  id: string;
  application_id: string;
  guild_id: string;
  name: string;
  version: string;
  named_version: string;
  default_member_permissions: string | null;
}

interface IndexRow extends SummaryRow {
  data: NormalizedCommand;
}

/** A command of the picker's index: its wire object, and what permissions decides with. */
export interface IndexedCommand {
  summary: CommandSummary;
  /** The command object, localized. */
  command: Record<string, unknown>;
}

/** A command an invocation names: the command as stored, and the version it got its name at. */
export interface InvocableCommand {
  stored: StoredCommand;
  namedVersion: string;
}

/** The columns of a CommandSummary (table `command`). */
const SUMMARY_COLUMNS = `id::text, application_id::text, guild_id::text, name, version::text, named_version::text,
              data->>'default_member_permissions' AS default_member_permissions`;

function toSummary(r: SummaryRow): CommandSummary {
  return {
    id: r.id,
    applicationId: r.application_id,
    guildId: r.guild_id === '0' ? '' : r.guild_id,
    name: r.name,
    version: r.version,
    namedVersion: r.named_version,
    defaultMemberPermissions: r.default_member_permissions,
  };
}

/** A guild where an application has guild commands (ACS-only index). */
export interface CommandGuild {
  guildId: string;
  /** Commands by type: CHAT_INPUT, USER, MESSAGE (guilds hold no entry point). */
  counts: { chatInput: number; user: number; message: number };
  /** The highest command version in the guild. */
  latestVersion: string;
}

/** Read-only questions across scopes, for permissions and the command picker (single statements on `pg`). */
export class CommandLookup {
  constructor(private readonly pool: Pool) {}

  /** Which of `ids` (`'all'`: every command) are the app's commands in the guild, global or that guild's. */
  async resolve(
    applicationId: string,
    guildId: string,
    ids: readonly string[] | 'all',
  ): Promise<CommandSummary[]> {
    if (ids !== 'all' && ids.length === 0) return [];
    const { rows } = await this.pool.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS}
         FROM command
        WHERE application_id = $1 AND guild_id IN (0, $2) AND ($3::bigint[] IS NULL OR id = ANY($3::bigint[]))`,
      [applicationId, guildId, ids === 'all' ? null : ids],
    );
    return rows.map(toSummary);
  }

  /**
   * The app's command `commandId` among its global commands and, when `guildId` is set
   * (not ''), its commands in that guild: what a user may invoke there. One indexed read
   * (by primary key); 404 / 10063 for another app's command, another guild's, or none.
   */
  async findInvocable(applicationId: string, guildId: string, commandId: string): Promise<InvocableCommand> {
    const { rows } = await this.pool.query<{
      guild_id: string;
      version: string;
      named_version: string;
      data: NormalizedCommand;
    }>(
      `SELECT guild_id::text, version::text, named_version::text, data
         FROM command
        WHERE id = $1 AND application_id = $2 AND guild_id IN (0, $3)`,
      // Global commands have guild_id 0, which no guild has: outside a guild only they match.
      [commandId, applicationId, guildId === '' ? '0' : guildId],
    );
    const row = rows[0];
    if (!row) throw new UnknownCommandError();
    return {
      stored: {
        id: commandId,
        applicationId,
        guildId: row.guild_id === '0' ? '' : row.guild_id,
        version: row.version,
        command: row.data,
      },
      namedVersion: row.named_version,
    };
  }

  /** The application ids with commands usable in a guild: any global command, or one of that guild. */
  async applicationsWithCommands(guildId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ application_id: string }>(
      `SELECT DISTINCT application_id::text FROM command WHERE guild_id IN (0, $1) ORDER BY 1`,
      [guildId],
    );
    return rows.map((r) => r.application_id);
  }

  /** The commands of these apps in a guild (global first, then the guild's), localized for `locale`. */
  async listForGuild(
    applicationIds: readonly string[],
    guildId: string,
    locale: string,
  ): Promise<IndexedCommand[]> {
    if (applicationIds.length === 0) return [];
    const { rows } = await this.pool.query<IndexRow>(
      `SELECT ${SUMMARY_COLUMNS}, data
         FROM command
        WHERE application_id = ANY($1::bigint[]) AND guild_id IN (0, $2)
        ORDER BY application_id, guild_id, id`,
      [applicationIds, guildId],
    );
    return rows.map((row) => {
      const summary = toSummary(row);
      const { id, applicationId, guildId: commandGuildId, version } = summary;
      const stored: StoredCommand = {
        id,
        applicationId,
        guildId: commandGuildId,
        version,
        command: row.data,
      };
      return { summary, command: renderCommand(stored, localizeCommand(stored.command, locale)) };
    });
  }

  /**
   * The guilds where the application has commands, by id after `after` ('' = from the
   * first), at most `limit`: one indexed range read of (application_id, guild_id).
   */
  async commandGuilds(applicationId: string, after: string, limit: number): Promise<CommandGuild[]> {
    const { rows } = await this.pool.query<{
      guild_id: string;
      chat_input: number;
      user_count: number;
      message: number;
      latest_version: string;
    }>(
      `SELECT guild_id::text,
              count(*) FILTER (WHERE type = 1)::int AS chat_input,
              count(*) FILTER (WHERE type = 2)::int AS user_count,
              count(*) FILTER (WHERE type = 3)::int AS message,
              max(version)::text AS latest_version
         FROM command
        WHERE application_id = $1 AND guild_id > $2
        GROUP BY guild_id
        ORDER BY guild_id
        LIMIT $3`,
      // Global commands have guild_id 0: `> 0` leaves them out.
      [applicationId, after === '' ? '0' : after, limit],
    );
    return rows.map((r) => ({
      guildId: r.guild_id,
      counts: { chatInput: r.chat_input, user: r.user_count, message: r.message },
      latestVersion: r.latest_version,
    }));
  }
}

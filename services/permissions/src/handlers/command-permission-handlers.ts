import type { permissions } from '@acs/protos';
import { MissingPermissionsError, parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { requireBitSet } from '@acs/validation';
import type { CommandDirectory, ResolvedCommand } from '../clients/command-directory';
import { checkPermissions, type PermissionContext } from '../domain/check-permissions';
import { checkPermissionEditor } from '../domain/command-permissions/check-permission-editor';
import {
  CommandPermissionType,
  renderCommandPermissions,
} from '../domain/command-permissions/command-permission-model';
import {
  UnknownCommandError,
  UnknownCommandPermissionsError,
} from '../domain/command-permissions/command-permissions-errors';
import { currentEntries } from '../domain/command-permissions/current-entries';
import {
  decideCommandPermission,
  type CommandDecision,
} from '../domain/command-permissions/decide-command-permission';
import {
  commandPermissionChannelId,
  memberForDecision,
} from '../domain/command-permissions/member-for-decision';
import { validateCommandPermissions } from '../domain/command-permissions/validate-command-permissions';
import { namePermissions, PERMISSION_FLAGS } from '../domain/permission-flags';
import type { CommandPermissionsStore, StoredCommandPermissions } from '../store/command-permissions-store';
import type { PermissionContextStore } from '../store/permission-context-store';

/** What the command permission RPCs work with. */
export interface CommandPermissionHandlerDeps {
  commandPermissions: CommandPermissionsStore;
  contexts: PermissionContextStore;
  commands: CommandDirectory;
}

/** What a user needs in the guild to edit command permissions (D: "Manage Guild and Manage Roles"). */
const EDIT_PERMISSIONS = PERMISSION_FLAGS.MANAGE_GUILD | PERMISSION_FLAGS.MANAGE_ROLES;

/**
 * The application command permission RPCs. Reads show an entry only while its command
 * still exists under the name it was written for, not renamed since (asked of
 * command-registry), so that a delete or rename removes the permissions at once; the
 * registry's events delete the rows.
 */
export function createCommandPermissionHandlers(deps: CommandPermissionHandlerDeps) {
  const { commandPermissions, contexts, commands } = deps;

  /** The entries that still apply, given the commands that exist now (one call per app with entries). */
  async function current(
    guildId: string,
    entries: StoredCommandPermissions[],
  ): Promise<StoredCommandPermissions[]> {
    const idsByApplication = new Map<string, string[]>();
    for (const e of entries) {
      if (e.commandName !== null)
        idsByApplication.set(e.applicationId, [...(idsByApplication.get(e.applicationId) ?? []), e.id]);
    }
    const resolved = await Promise.all(
      [...idsByApplication].map(([applicationId, ids]) => commands.resolve(applicationId, guildId, ids)),
    );
    // Command ids are snowflakes, unique across applications.
    return currentEntries(entries, new Map(resolved.flatMap((found) => [...found])));
  }

  /** The decision for one command of the app, given the app's current entries. */
  function decide(
    guildId: string,
    context: PermissionContext,
    applicationId: string,
    command: ResolvedCommand,
    entries: readonly StoredCommandPermissions[],
  ): CommandDecision {
    const own = entries.filter((e) => e.applicationId === applicationId);
    return decideCommandPermission({
      guildId,
      channelId: commandPermissionChannelId(context),
      member: memberForDecision(context),
      commandOverwrites: own.find((e) => e.id === command.id)?.permissions ?? [],
      applicationOverwrites: own.find((e) => e.id === applicationId)?.permissions ?? [],
      defaultMemberPermissions: command.defaultMemberPermissions,
    });
  }

  return {
    async ListCommandPermissions(
      request: permissions.ListCommandPermissionsRequest__Output,
    ): Promise<permissions.ListCommandPermissionsResponse> {
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const entries = await current(
        guildId,
        await commandPermissions.listForApplication(guildId, applicationId),
      );
      return { permissions_json: JSON.stringify(entries.map(renderCommandPermissions)) };
    },

    async GetCommandPermissions(
      request: permissions.GetCommandPermissionsRequest__Output,
    ): Promise<permissions.GetCommandPermissionsResponse> {
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const commandId = readPathSnowflake('command_id', request.command_id);
      const stored = await commandPermissions.listByIds(guildId, [commandId]);
      const [entry] = await current(
        guildId,
        stored.filter((e) => e.applicationId === applicationId),
      );
      if (!entry) throw new UnknownCommandPermissionsError();
      return { permissions_json: JSON.stringify(renderCommandPermissions(entry)) };
    },

    async UpdateCommandPermissions(
      request: permissions.UpdateCommandPermissionsRequest__Output,
    ): Promise<permissions.UpdateCommandPermissionsResponse> {
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const commandId = readPathSnowflake('command_id', request.command_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const body = validateCommandPermissions(parseJsonBody(request.body_json));

      const context = await contexts.loadPermissionContext(guildId, userId);
      const editor = checkPermissions(context, EDIT_PERMISSIONS);
      if (!editor.allowed) throw new MissingPermissionsError(namePermissions(editor.missing));

      const isAppLevel = commandId === applicationId;
      const idsOf = (type: number) => body.filter((p) => p.type === type).map((p) => p.id);
      const [resolved, stored, targets] = await Promise.all([
        isAppLevel
          ? new Map<string, ResolvedCommand>()
          : commands.resolve(applicationId, guildId, [commandId]),
        commandPermissions.listByIds(guildId, [commandId, applicationId]),
        commandPermissions.loadEditTargets(
          guildId,
          [...(context.member?.roleIds ?? []), ...idsOf(CommandPermissionType.ROLE)],
          idsOf(CommandPermissionType.CHANNEL),
        ),
      ]);
      const found = resolved.get(commandId);
      if (!isAppLevel && !found) throw new UnknownCommandError();
      checkPermissionEditor({
        context,
        // Guild-wide: may the editor use the command as its permissions stand now?
        decision: found
          ? decide(guildId, context, applicationId, found, currentEntries(stored, resolved))
          : null,
        permissions: body,
        ...targets,
      });
      const command = found ? { name: found.name, version: found.version } : { name: null, version: '0' };
      const entry = await commandPermissions.replace({
        guildId,
        applicationId,
        commandId,
        commandName: command.name,
        commandVersion: command.version,
        permissions: body,
      });
      return { permissions_json: JSON.stringify(renderCommandPermissions(entry)) };
    },

    async CheckCommandPermission(
      request: permissions.CheckCommandPermissionRequest__Output,
    ): Promise<permissions.CheckCommandPermissionResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const commandId = readPathSnowflake('command_id', request.command_id);
      const channelId =
        request.channel_id === '' ? undefined : readPathSnowflake('channel_id', request.channel_id);

      const [context, resolved, stored] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId, channelId),
        commands.resolve(applicationId, guildId, [commandId]),
        commandPermissions.listByIds(guildId, [commandId, applicationId]),
      ]);
      const command = resolved.get(commandId);
      if (!command) throw new UnknownCommandError();
      const decision = decide(guildId, context, applicationId, command, currentEntries(stored, resolved));
      return {
        allowed: decision.allowed,
        reason: decision.reason,
        level: decision.level ?? '',
        overwrite_id: decision.overwriteId ?? '',
        missing: decision.missing === undefined ? '' : decision.missing.toString(),
      };
    },

    async FilterUsableCommands(
      request: permissions.FilterUsableCommandsRequest__Output,
    ): Promise<permissions.FilterUsableCommandsResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const channelId =
        request.channel_id === '' ? undefined : readPathSnowflake('channel_id', request.channel_id);
      const candidates = request.commands.map(readCandidate);
      const applicationIds = [...new Set(candidates.map((c) => c.application_id))];
      const [context, stored] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId, channelId),
        commandPermissions.listByIds(guildId, [...applicationIds, ...candidates.map((c) => c.command_id)]),
      ]);
      // The candidates carry their names but not since when (a rename A -> B -> A hides the
      // entries written for the first A): command-registry is asked about those with entries.
      const entries = new Map((await current(guildId, stored)).map((e) => [`${e.applicationId}:${e.id}`, e]));
      const member = memberForDecision(context);
      const effectiveChannelId = commandPermissionChannelId(context);
      const usable = candidates.filter(
        (c) =>
          decideCommandPermission({
            guildId,
            channelId: effectiveChannelId,
            member,
            commandOverwrites: entries.get(`${c.application_id}:${c.command_id}`)?.permissions ?? [],
            applicationOverwrites: entries.get(`${c.application_id}:${c.application_id}`)?.permissions ?? [],
            defaultMemberPermissions: c.defaultMemberPermissions,
          }).allowed,
      );
      return { command_ids: usable.map((c) => c.command_id) };
    },
  };
}

/**
 * A FilterUsableCommands candidate, checked like any RPC field (ids fit a bigint, the bit
 * set is bounded before BigInt): 50035 at `commands` otherwise.
 */
function readCandidate(candidate: permissions.UsableCommandCandidate__Output) {
  return {
    application_id: readPathSnowflake('commands', candidate.application_id),
    command_id: readPathSnowflake('commands', candidate.command_id),
    defaultMemberPermissions:
      candidate.default_member_permissions === ''
        ? null
        : requireBitSet('commands', candidate.default_member_permissions),
  };
}

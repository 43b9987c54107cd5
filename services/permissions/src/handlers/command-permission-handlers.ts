import type { permissions } from '@acs/protos';
import { MissingPermissionsError, parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { checkPermissions } from '../domain/check-permissions';
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
import { decideCommandPermission } from '../domain/command-permissions/decide-command-permission';
import { decideForCommand } from '../domain/command-permissions/decide-for-command';
import {
  commandPermissionChannelId,
  memberForDecision,
} from '../domain/command-permissions/member-for-decision';
import { validateCommandPermissions } from '../domain/command-permissions/validate-command-permissions';
import { namePermissions, PERMISSION_FLAGS } from '../domain/permission-flags';
import type { CommandPermissionsStore } from '../store/command-permissions-store';
import type { PermissionContextStore } from '../store/permission-context-store';
import { commandOf, readRegisteredCommands } from './read-registered-commands';

/** What the command permission RPCs work with. */
export interface CommandPermissionHandlerDeps {
  commandPermissions: CommandPermissionsStore;
  contexts: PermissionContextStore;
}

/** What a user needs in the guild to edit command permissions (D: "Manage Guild and Manage Roles"). */
const EDIT_PERMISSIONS = PERMISSION_FLAGS.MANAGE_GUILD | PERMISSION_FLAGS.MANAGE_ROLES;

/**
 * The application command permission RPCs. Reads show an entry only while its command
 * still exists under the name it was written for, not renamed since: the request carries
 * the commands as command-registry has them now (the caller asked it), so that a delete
 * or rename removes the permissions at once; the registry's events delete the rows.
 */
export function createCommandPermissionHandlers({
  commandPermissions,
  contexts,
}: CommandPermissionHandlerDeps) {
  return {
    async ListCommandPermissions(
      request: permissions.ListCommandPermissionsRequest__Output,
    ): Promise<permissions.ListCommandPermissionsResponse> {
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const registered = readRegisteredCommands(request.commands);
      const entries = currentEntries(
        await commandPermissions.listForApplication(guildId, applicationId),
        registered,
      );
      return { permissions_json: JSON.stringify(entries.map(renderCommandPermissions)) };
    },

    async GetCommandPermissions(
      request: permissions.GetCommandPermissionsRequest__Output,
    ): Promise<permissions.GetCommandPermissionsResponse> {
      const applicationId = readPathSnowflake('application_id', request.application_id);
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const commandId = readPathSnowflake('command_id', request.command_id);
      const registered = readRegisteredCommands(request.commands);
      const stored = await commandPermissions.listByIds(guildId, [commandId]);
      const [entry] = currentEntries(
        stored.filter((e) => e.applicationId === applicationId),
        registered,
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
      const registered = readRegisteredCommands(request.commands);
      const body = validateCommandPermissions(parseJsonBody(request.body_json));

      const context = await contexts.loadPermissionContext(guildId, userId);
      const editor = checkPermissions(context, EDIT_PERMISSIONS);
      if (!editor.allowed) throw new MissingPermissionsError(namePermissions(editor.missing));

      const isAppLevel = commandId === applicationId;
      const found = isAppLevel ? undefined : commandOf(registered, applicationId, commandId);
      if (!isAppLevel && !found) throw new UnknownCommandError();
      const idsOf = (type: number) => body.filter((p) => p.type === type).map((p) => p.id);
      const [stored, targets] = await Promise.all([
        commandPermissions.listByIds(guildId, [commandId, applicationId]),
        commandPermissions.loadEditTargets(
          guildId,
          [...(context.member?.roleIds ?? []), ...idsOf(CommandPermissionType.ROLE)],
          idsOf(CommandPermissionType.CHANNEL),
        ),
      ]);
      checkPermissionEditor({
        context,
        // Guild-wide: may the editor use the command as its permissions stand now?
        decision: found ? decideForCommand(context, found, currentEntries(stored, registered)) : null,
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
      const registered = readRegisteredCommands(request.commands);

      const [context, stored] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId, channelId),
        commandPermissions.listByIds(guildId, [commandId, applicationId]),
      ]);
      const command = commandOf(registered, applicationId, commandId);
      if (!command) throw new UnknownCommandError();
      const decision = decideForCommand(context, command, currentEntries(stored, registered));
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
      const candidates = readRegisteredCommands(request.commands);
      const applicationIds = [...new Set([...candidates.values()].map((c) => c.applicationId))];
      const [context, stored] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId, channelId),
        commandPermissions.listByIds(guildId, [...applicationIds, ...candidates.keys()]),
      ]);
      // The candidates are the commands as the registry has them now: entries written
      // for an older name (a rename, even A -> B -> A) no longer apply.
      const entries = new Map(
        currentEntries(stored, candidates).map((e) => [`${e.applicationId}:${e.id}`, e]),
      );
      const member = memberForDecision(context);
      const effectiveChannelId = commandPermissionChannelId(context);
      const usable = request.commands.filter(
        (c) =>
          decideCommandPermission({
            guildId,
            channelId: effectiveChannelId,
            member,
            commandOverwrites: entries.get(`${c.application_id}:${c.command_id}`)?.permissions ?? [],
            applicationOverwrites: entries.get(`${c.application_id}:${c.application_id}`)?.permissions ?? [],
            defaultMemberPermissions: candidates.get(c.command_id)?.defaultMemberPermissions ?? null,
          }).allowed,
      );
      return { command_ids: usable.map((c) => c.command_id) };
    },
  };
}

import type { permissions } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import { UnknownCommandError } from '../domain/command-permissions/command-permissions-errors';
import { currentEntries } from '../domain/command-permissions/current-entries';
import { describeDmInvocation } from '../domain/invocation/describe-dm-invocation';
import { describeGuildInvocation } from '../domain/invocation/describe-guild-invocation';
import type { InvocationDescription } from '../domain/invocation/invocation-description';
import { UnknownGuildError } from '../domain/permissions-errors';
import type { CommandPermissionsStore } from '../store/command-permissions-store';
import type { DmChannelStore } from '../store/dm-channel-store';
import type { GuildPlaceStore } from '../store/guild-place-store';
import { readRegisteredCommands } from './read-registered-commands';

/** What the invocation RPC works with. */
export interface InvocationHandlerDeps {
  places: GuildPlaceStore;
  dmChannels: DmChannelStore;
  commandPermissions: CommandPermissionsStore;
}

/** Request ids of one kind, each a snowflake (50035 at `field` otherwise), without repeats. */
function readIds(field: string, ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => readPathSnowflake(field, id)))];
}

/** The answer on the wire: objects as JSON text, bit sets as decimal strings. */
function toResponse(d: InvocationDescription): permissions.DescribeInvocationContextResponse {
  return {
    channel_json: JSON.stringify(d.channel),
    guild_json: d.guild ? JSON.stringify(d.guild) : '',
    member_json: d.member ? JSON.stringify(d.member) : '',
    user_permissions: d.userPermissions.toString(),
    app_permissions: d.appPermissions.toString(),
    bot_is_member: d.botIsMember,
    allowed: d.allowed,
    reason: d.reason,
    resolved_members_json: JSON.stringify(d.resolvedMembers),
    resolved_roles_json: JSON.stringify(d.resolvedRoles),
    resolved_channels_json: JSON.stringify(d.resolvedChannels),
    recipient_ids: d.recipientIds,
    attachment_size_limit: d.attachmentSizeLimit ?? 0,
  };
}

/**
 * `DescribeInvocationContext`: everything the interactions service needs to know of the
 * place of an invocation, in one call. In a guild, two statements run together (the place,
 * and the app's command permission entries); in a DM, one.
 */
export function createInvocationHandlers({ places, dmChannels, commandPermissions }: InvocationHandlerDeps) {
  return {
    async DescribeInvocationContext(
      request: permissions.DescribeInvocationContextRequest__Output,
    ): Promise<permissions.DescribeInvocationContextResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const applicationId = readPathSnowflake('application_id', request.application_id);
      if (request.guild_id === '') {
        return toResponse(
          describeDmInvocation(await dmChannels.getDmChannel(channelId), userId, applicationId),
        );
      }
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const resolve = {
        userIds: readIds('resolve_user_ids', request.resolve_user_ids),
        roleIds: readIds('resolve_role_ids', request.resolve_role_ids),
        channelIds: readIds('resolve_channel_ids', request.resolve_channel_ids),
      };
      // The command as command-registry has it (one, or none: nothing to decide); another
      // application's command counts as absent, as in CheckCommandPermission.
      const registered = request.command ? readRegisteredCommands([request.command], 'command') : null;
      const command = registered ? [...registered.values()][0] : undefined;
      if (registered && command?.applicationId !== applicationId) throw new UnknownCommandError();

      const [place, stored] = await Promise.all([
        places.loadGuildPlace(
          guildId,
          [userId, applicationId, ...resolve.userIds],
          [channelId, ...resolve.channelIds],
        ),
        command ? commandPermissions.listByIds(guildId, [command.id, applicationId]) : [],
      ]);
      if (!place) throw new UnknownGuildError();
      return toResponse(
        describeGuildInvocation({
          place,
          channelId,
          userId,
          applicationId,
          command:
            command && registered
              ? { registered: command, entries: currentEntries(stored, registered) }
              : null,
          resolve,
        }),
      );
    },
  };
}

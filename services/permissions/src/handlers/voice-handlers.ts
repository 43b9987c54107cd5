import type { permissions } from '@acs/protos';
import {
  MissingAccessError,
  MissingPermissionsError,
  parseJsonObject,
  readPathSnowflake,
} from '@acs/discord-errors';
import { visibleChannelIds } from '../domain/channel-visibility';
import { checkPermissions } from '../domain/check-permissions';
import { namePermissions, PERMISSION_FLAGS } from '../domain/permission-flags';
import {
  InvalidChannelTypeError,
  UnknownChannelError,
  UnknownGuildError,
} from '../domain/permissions-errors';
import {
  isVoiceChannelType,
  validateVoiceStatusBody,
  VOICE_CONNECT_PERMISSIONS,
  voiceStatusPermissions,
} from '../domain/voice/voice-rules';
import type { ChannelStore } from '../store/channel-store';
import type { PermissionContextStore } from '../store/permission-context-store';
import type { VoiceStore } from '../store/voice-store';

/** What the voice RPCs work with. */
export interface VoiceHandlerDeps {
  contexts: PermissionContextStore;
  channels: ChannelStore;
  voice: VoiceStore;
}

/**
 * The voice RPCs (D:resources/voice.mdx, D:resources/channel.mdx §Set Voice Channel Status,
 * D:events/gateway-events.mdx §Request Channel Info).
 */
export function createVoiceHandlers({ contexts, channels, voice }: VoiceHandlerDeps) {
  return {
    async UpdateVoiceState(
      request: permissions.UpdateVoiceStateRequest__Output,
    ): Promise<permissions.UpdateVoiceStateResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const channelId =
        request.channel_id === '' ? null : readPathSnowflake('channel_id', request.channel_id);
      if (channelId !== null) {
        const channel = await channels.getChannel(channelId);
        if (!channel || channel.guildId !== guildId) throw new UnknownChannelError();
        if (!isVoiceChannelType(channel.type)) throw new InvalidChannelTypeError();
        const decision = checkPermissions(
          await contexts.loadPermissionContext(guildId, userId, channelId),
          VOICE_CONNECT_PERMISSIONS,
        );
        if (!decision.isMember) throw new UnknownGuildError();
        if (!decision.allowed) throw new MissingPermissionsError(namePermissions(decision.missing));
      }
      const changed = await voice.updateVoiceState({
        guildId,
        userId,
        channelId,
        sessionId: request.session_id,
        selfMute: request.self_mute,
        selfDeaf: request.self_deaf,
      });
      return { changed };
    },

    async SetVoiceChannelStatus(
      request: permissions.SetVoiceChannelStatusRequest__Output,
    ): Promise<permissions.SetVoiceChannelStatusResponse> {
      const channelId = readPathSnowflake('channel_id', request.channel_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      // The body first: a malformed one is refused whatever the channel (nothing is looked up).
      const status = validateVoiceStatusBody(parseJsonObject(request.body_json));
      const channel = await channels.getChannel(channelId);
      if (!channel) throw new UnknownChannelError();
      const context = await contexts.loadPermissionContext(channel.guildId, userId, channelId);
      // Not the caller's guild, or a channel it cannot see: Discord's answer is Missing Access.
      if (!checkPermissions(context, PERMISSION_FLAGS.VIEW_CHANNEL).allowed) throw new MissingAccessError();
      if (!isVoiceChannelType(channel.type)) throw new InvalidChannelTypeError();
      const connected = (await voice.findVoiceState(channel.guildId, userId))?.channelId === channelId;
      const decision = checkPermissions(context, voiceStatusPermissions(connected));
      if (!decision.allowed) throw new MissingPermissionsError(namePermissions(decision.missing));
      await voice.setVoiceStatus(channel.guildId, channelId, status);
      return {};
    },

    async GetChannelInfo(
      request: permissions.GetChannelInfoRequest__Output,
    ): Promise<permissions.GetChannelInfoResponse> {
      const guildId = readPathSnowflake('guild_id', request.guild_id);
      const userId = readPathSnowflake('user_id', request.user_id);
      const [viewer, guildChannels, infos] = await Promise.all([
        contexts.loadPermissionContext(guildId, userId),
        channels.listChannels(guildId),
        voice.listVoiceChannelInfo(guildId),
      ]);
      if (!checkPermissions(viewer, 0n).isMember) throw new UnknownGuildError();
      // Only the channels the caller may view (D:topics/permissions.mdx §Channel Visibility).
      const visible = visibleChannelIds(viewer, guildChannels);
      return { channels_json: JSON.stringify(infos.filter((info) => visible.has(info.id))) };
    },
  };
}

import type { permissions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import { validateOpenDmChannel } from '../domain/dm/validate-open-dm-channel';
import { renderDmChannel } from '../domain/render/render-dm-channel';
import type { DmChannelStore } from '../store/dm-channel-store';

/** What the DM channel RPC works with. */
export interface DmChannelHandlerDeps {
  dmChannels: DmChannelStore;
}

/**
 * `OpenDmChannel` (`POST /users/@me/channels`): the one DM of the caller and a recipient,
 * or a new group DM (an application's when `application_id` is given: its bot opens it). The
 * caller has checked that the recipients exist (users are oauth's).
 */
export function createDmChannelHandlers({ dmChannels }: DmChannelHandlerDeps) {
  return {
    async OpenDmChannel(
      request: permissions.OpenDmChannelRequest__Output,
    ): Promise<permissions.OpenDmChannelResponse> {
      const userId = readPathSnowflake('user_id', request.user_id);
      const input = validateOpenDmChannel(parseJsonBody(request.body_json), userId);
      const channel =
        input.kind === 'dm'
          ? await dmChannels.openDm(userId, input.recipientId)
          : await dmChannels.createGroupDm(
              userId,
              input.recipientIds,
              request.application_id === ''
                ? null
                : readPathSnowflake('application_id', request.application_id),
            );
      return { channel_json: JSON.stringify(renderDmChannel(channel)), recipient_ids: channel.recipientIds };
    },
  };
}

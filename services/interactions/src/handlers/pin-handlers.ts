import type { interactions } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import type { PermissionsClient } from '../clients/permissions-client';
import { assertMayPin, mayReadPins, readPinsQuery, renderPins } from '../domain/pins';
import type { PinStore } from '../store/pin-store';

/** What the pin handlers need. */
export interface PinHandlerDeps {
  permissions: PermissionsClient;
  pins: PinStore;
}

/**
 * `PUT`/`DELETE /channels/{id}/messages/pins/{id}` and `GET /channels/{id}/messages/pins`
 * (D:resources/message.mdx §Pin Message, §Unpin Message, §Get Channel Pins) over the
 * messages this service stores. permissions says where the channel is and what the caller
 * may do there (404 / 10003 for an unknown channel).
 */
export function createPinHandlers({ permissions, pins }: PinHandlerDeps) {
  return {
    async SetMessagePinned(
      req: interactions.SetMessagePinnedRequest__Output,
    ): Promise<interactions.SetMessagePinnedResponse> {
      const channelId = readPathSnowflake('channel_id', req.channel_id);
      const messageId = readPathSnowflake('message_id', req.message_id);
      const userId = readPathSnowflake('user_id', req.user_id);
      const actorApplicationId =
        req.application_id === '' ? null : readPathSnowflake('application_id', req.application_id);
      const access = await permissions.describeChannelAccess(channelId, userId);
      assertMayPin(access);
      await pins.setPinned({
        channelId,
        messageId,
        pinned: req.pinned,
        actorApplicationId,
        recipientIds: access.recipientIds,
      });
      return {};
    },

    async ListPinnedMessages(
      req: interactions.ListPinnedMessagesRequest__Output,
    ): Promise<interactions.ListPinnedMessagesResponse> {
      const channelId = readPathSnowflake('channel_id', req.channel_id);
      const userId = readPathSnowflake('user_id', req.user_id);
      const query = readPinsQuery(req.before, req.limit);
      const access = await permissions.describeChannelAccess(channelId, userId);
      if (!mayReadPins(access)) return { pins_json: JSON.stringify(renderPins([], false)) };
      const page = await pins.listPins(channelId, query);
      return { pins_json: JSON.stringify(renderPins(page.pins, page.hasMore)) };
    },
  };
}

import type { JsonObject } from '@acs/validation';
import { readMessageSource, renderMessage, type InteractionMessage } from '../messages';

/**
 * The message an entry point's launch posts in the channel (handler 2: Discord launches
 * the Activity itself): the invocation shown as the app's message, with no content, tied
 * to the interaction by `interaction_metadata` (type 20, as every response of a command
 * that is not a context menu).
 */
export function renderLaunchMessage(
  interaction: JsonObject,
  botUser: JsonObject,
  messageId: string,
  createdAt: Date,
): InteractionMessage {
  return renderMessage(readMessageSource(interaction, botUser), {
    id: messageId,
    createdAt,
    content: '',
    embeds: [],
    tts: false,
    flags: 0,
  });
}

import type { ChannelAccess } from '../pins/channel-access';
import { authorIdOf, type ChannelMessage } from './channel-message';
import { assertMayModerate, assertMayView, type Caller } from './channel-message-rules';

/**
 * Whether the caller may delete the message (D:resources/message.mdx §Delete Message): its
 * author always (in a channel they can view: else 403 / 50001); anyone else with
 * MANAGE_MESSAGES in a guild (403 / 50013), never in a DM (403 / 50003). The message types
 * Discord never deletes (system messages, 50021) are not among those ACS stores.
 */
export function assertMayDelete(message: ChannelMessage, caller: Caller, access: ChannelAccess): void {
  assertMayView(access);
  if (authorIdOf(message) !== caller.userId) assertMayModerate(access);
}

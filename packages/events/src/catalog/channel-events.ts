import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * A guild channel (or thread) as the API renders it (D:resources/channel.mdx §Channel
 * Object): the fields the dispatcher routes by are checked, the rest travels as is.
 */
const channelObject = z.object({ id: snowflake, type: z.number().int(), guild_id: snowflake }).passthrough();

/**
 * A guild channel was created, changed (its name, its permission overwrites) or deleted,
 * as the permissions service wrote it: CHANNEL_CREATE / CHANNEL_UPDATE / CHANNEL_DELETE to
 * the bots of the guild (D:events/gateway-events.mdx §Channel Create). A change of
 * overwrites can also change which of the guild's channels a bot may view, which the
 * dispatcher recomputes for each bot session that asked for channel obfuscation.
 */
export const channelChanged = z.object({ guild_id: snowflake, channel: channelObject });

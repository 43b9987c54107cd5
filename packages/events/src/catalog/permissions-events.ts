import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * A command's (or, with the application id as `id`, the application's) permissions in a
 * guild were replaced: the guild application command permissions object, as
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE carries it (D:events/gateway-events.mdx; facts §17).
 */
export const applicationCommandPermissionsUpdated = z.object({
  id: snowflake,
  application_id: snowflake,
  guild_id: snowflake,
  permissions: z.array(
    z.object({
      id: snowflake,
      type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      permission: z.boolean(),
    }),
  ),
});

import { z } from 'zod';
import { snowflake } from './snowflake-schema';

/**
 * An AutoMod rule as the API shows it (D:resources/auto-moderation.mdx §Auto Moderation Rule
 * Object): the fields the dispatcher routes by are checked, the rest travels as is.
 */
const ruleObject = z.object({ id: snowflake, guild_id: snowflake }).passthrough();

/**
 * A guild's AutoMod rule was created, changed or deleted (the interactions service, which
 * owns the rules): AUTO_MODERATION_RULE_CREATE / _UPDATE / _DELETE with the rule to the
 * guild's bots that have MANAGE_GUILD (AUTO_MODERATION_CONFIGURATION, 1 << 20).
 */
export const autoModRuleChanged = z.object({ guild_id: snowflake, rule: ruleObject });

/**
 * An AutoMod rule's action ran on a member's message (D:events/gateway-events.mdx §Auto
 * Moderation Action Execution): AUTO_MODERATION_ACTION_EXECUTION to the guild's bots that
 * have MANAGE_GUILD (AUTO_MODERATION_EXECUTION, 1 << 21); `content` and `matched_content`
 * blanked for a session without MESSAGE_CONTENT. No `message_id` when the message was blocked.
 */
export const autoModActionExecuted = z.object({
  guild_id: snowflake,
  action: z.object({ type: z.number().int() }).passthrough(),
  rule_id: snowflake,
  rule_trigger_type: z.number().int(),
  user_id: snowflake,
  channel_id: snowflake,
  message_id: snowflake.optional(),
  alert_system_message_id: snowflake.optional(),
  content: z.string(),
  matched_keyword: z.string().nullable(),
  matched_content: z.string().nullable(),
});

import type { CheckedEvent } from '@acs/events';
import type { GatewayRoute } from './gateway-route';

/** The interactions service's AutoMod events: rule changes and action executions. */
export const AUTOMOD_EVENTS = [
  'interactions.automod_rule.created',
  'interactions.automod_rule.updated',
  'interactions.automod_rule.deleted',
  'interactions.automod.action_executed',
] as const;

/** AUTO_MODERATION_CONFIGURATION (1 << 20) and AUTO_MODERATION_EXECUTION (1 << 21) (D:events/gateway.mdx §List of Intents). */
export const AUTO_MODERATION_CONFIGURATION = 1 << 20;
export const AUTO_MODERATION_EXECUTION = 1 << 21;

/** An AutoMod event, checked against the catalog. */
export type AutoModEvent = CheckedEvent<(typeof AUTOMOD_EVENTS)[number]>;

/** Whether an event is one of AUTOMOD_EVENTS. */
export function isAutoModEvent(event: CheckedEvent): event is AutoModEvent {
  return (AUTOMOD_EVENTS as readonly string[]).includes(event.name);
}

const RULE_DISPATCH = {
  'interactions.automod_rule.created': 'AUTO_MODERATION_RULE_CREATE',
  'interactions.automod_rule.updated': 'AUTO_MODERATION_RULE_UPDATE',
  'interactions.automod_rule.deleted': 'AUTO_MODERATION_RULE_DELETE',
} as const;

/**
 * The dispatches of an AutoMod event (D:events/gateway-events.mdx §Auto Moderation Rule
 * Create … §Auto Moderation Action Execution) to the sessions of `managerBotIds`, the
 * guild's bots that have MANAGE_GUILD there (Discord sends them to no one else), on the
 * guild's shard: rule events with AUTO_MODERATION_CONFIGURATION, executions with
 * AUTO_MODERATION_EXECUTION, whose `content` and `matched_content` are empty for a session
 * without MESSAGE_CONTENT (D:change-log.mdx 2022-06-21).
 */
export function planAutoModEvent(event: AutoModEvent, managerBotIds: readonly string[]): GatewayRoute[] {
  const guildId = event.data.guild_id;
  const dispatch =
    event.name === 'interactions.automod.action_executed'
      ? {
          t: 'AUTO_MODERATION_ACTION_EXECUTION',
          d: event.data,
          intent: AUTO_MODERATION_EXECUTION,
          withoutContent: {
            ...event.data,
            content: '',
            matched_content: event.data.matched_content === null ? null : '',
          },
        }
      : { t: RULE_DISPATCH[event.name], d: event.data.rule, intent: AUTO_MODERATION_CONFIGURATION };
  return [...new Set(managerBotIds)].map((applicationId) => ({
    to: 'bot',
    applicationId,
    message: { kind: 'dispatch', guildId, ...dispatch },
  }));
}

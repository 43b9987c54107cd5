import type { JsonObject } from '@acs/validation';
import { formatTimestamp } from '../messages/format-timestamp';
import type { ChannelMessage } from '../channel-messages/channel-message';
import { ActionType } from './automod-rule';
import type { Execution } from './judge-message';

/** Message type 24 AUTO_MODERATION_ACTION (D:resources/message.mdx §Message Types). */
export const AUTO_MODERATION_ACTION_MESSAGE = 24;

/** An execution's AUTO_MODERATION_ACTION_EXECUTION payload (D:events/gateway-events.mdx §Auto Moderation Action Execution). */
export interface ExecutionPayload {
  guild_id: string;
  action: { type: number; metadata: JsonObject };
  rule_id: string;
  rule_trigger_type: number;
  user_id: string;
  channel_id: string;
  message_id?: string;
  alert_system_message_id?: string;
  content: string;
  matched_keyword: string | null;
  matched_content: string | null;
}

/** What running a verdict's actions writes: the alert messages and one execution payload per action. */
export interface ExecutionPlan {
  alerts: ChannelMessage[];
  payloads: ExecutionPayload[];
}

/** Where and by whom the judged message was sent. */
export interface ExecutionFacts {
  guildId: string;
  channelId: string;
  author: JsonObject;
  authorId: string;
  content: string;
  /** The message's id when it was kept (not blocked). */
  messageId?: string;
  /** Ids for the alert messages, one per SEND_ALERT_MESSAGE execution. */
  nextId: () => string;
  now: Date;
}

/**
 * Plans a verdict's executions: each SEND_ALERT_MESSAGE posts a system message (type 24,
 * AUTO_MODERATION_ACTION) to its channel, authored by the sender, with an
 * `auto_moderation_message` embed carrying the content and what matched ([Inf]: the shape of
 * Discord's client-rendered alert); each action gives one AUTO_MODERATION_ACTION_EXECUTION
 * (without `message_id` when the message was blocked, with `alert_system_message_id` for an
 * alert).
 */
export function planExecutions(executions: readonly Execution[], facts: ExecutionFacts): ExecutionPlan {
  const alerts: ChannelMessage[] = [];
  const payloads = executions.map((execution): ExecutionPayload => {
    const { rule, action, match } = execution;
    const payload: ExecutionPayload = {
      guild_id: facts.guildId,
      action: { type: action.type, metadata: { ...action.metadata } },
      rule_id: rule.id,
      rule_trigger_type: rule.trigger_type,
      user_id: facts.authorId,
      channel_id: facts.channelId,
      ...(facts.messageId === undefined ? {} : { message_id: facts.messageId }),
      content: facts.content,
      matched_keyword: match.keyword,
      matched_content: match.content,
    };
    const alertChannelId = action.metadata.channel_id;
    if (action.type !== ActionType.SEND_ALERT_MESSAGE || alertChannelId === undefined) return payload;
    const alert = alertMessage(execution, facts, alertChannelId);
    alerts.push(alert);
    return { ...payload, alert_system_message_id: alert.id };
  });
  return { alerts, payloads };
}

function alertMessage(execution: Execution, facts: ExecutionFacts, channelId: string): ChannelMessage {
  const field = (name: string, value: string) => ({ name, value, inline: false });
  const fields = [
    field('rule_name', execution.rule.name),
    field('channel_id', facts.channelId),
    ...(execution.match.keyword === null ? [] : [field('keyword', execution.match.keyword)]),
    ...(execution.match.content === null ? [] : [field('keyword_matched_content', execution.match.content)]),
    ...(facts.messageId === undefined ? [] : [field('flagged_message_id', facts.messageId)]),
  ];
  return {
    type: AUTO_MODERATION_ACTION_MESSAGE,
    content: '',
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [{ type: 'auto_moderation_message', description: facts.content, fields }],
    timestamp: formatTimestamp(facts.now),
    edited_timestamp: null,
    flags: 0,
    components: [],
    id: facts.nextId(),
    channel_id: channelId,
    author: facts.author,
    pinned: false,
    mention_everyone: false,
    tts: false,
  };
}

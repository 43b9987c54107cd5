/** Trigger types (D:resources/auto-moderation.mdx §Trigger Types). */
export const TriggerType = {
  KEYWORD: 1,
  SPAM: 3,
  KEYWORD_PRESET: 4,
  MENTION_SPAM: 5,
  MEMBER_PROFILE: 6,
} as const;
export type TriggerType = (typeof TriggerType)[keyof typeof TriggerType];
export const TRIGGER_TYPES: readonly TriggerType[] = [1, 3, 4, 5, 6];

/** How many rules of each trigger type one guild may have (D §Trigger Types, "Max per Guild"). */
export const MAX_RULES_PER_TRIGGER: Readonly<Record<TriggerType, number>> = {
  1: 6,
  3: 1,
  4: 1,
  5: 1,
  6: 1,
};

/** Event types (D §Event Types): 1 MESSAGE_SEND (sent or edited), 2 MEMBER_UPDATE. */
export const EventType = { MESSAGE_SEND: 1, MEMBER_UPDATE: 2 } as const;
export type EventType = (typeof EventType)[keyof typeof EventType];
export const EVENT_TYPES: readonly EventType[] = [1, 2];

/** Action types (D §Action Types). */
export const ActionType = {
  BLOCK_MESSAGE: 1,
  SEND_ALERT_MESSAGE: 2,
  TIMEOUT: 3,
  BLOCK_MEMBER_INTERACTION: 4,
} as const;
export type ActionType = (typeof ActionType)[keyof typeof ActionType];
export const ACTION_TYPES: readonly ActionType[] = [1, 2, 3, 4];

/** Keyword preset types (D §Keyword Preset Types): 1 PROFANITY, 2 SEXUAL_CONTENT, 3 SLURS. */
export const KEYWORD_PRESETS = [1, 2, 3] as const;
export type KeywordPreset = (typeof KEYWORD_PRESETS)[number];

/** An action as the API shows it (D §Auto Moderation Action Object). */
export interface AutoModAction {
  type: ActionType;
  metadata: { custom_message?: string; channel_id?: string; duration_seconds?: number };
}

/** A trigger's metadata as the API shows it, by trigger type (OAS `*TriggerMetadataResponse`). */
export interface TriggerMetadata {
  keyword_filter?: string[];
  regex_patterns?: string[];
  allow_list?: string[];
  presets?: KeywordPreset[];
  mention_total_limit?: number;
  mention_raid_protection_enabled?: boolean;
}

/** A rule as the API shows it (D §Auto Moderation Rule Object; OAS `KeywordRuleResponse` and kin). */
export interface AutoModRule {
  id: string;
  guild_id: string;
  name: string;
  creator_id: string;
  event_type: EventType;
  trigger_type: TriggerType;
  trigger_metadata: TriggerMetadata;
  actions: AutoModAction[];
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

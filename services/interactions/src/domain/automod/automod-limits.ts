/**
 * AutoMod's limits as Discord documents them (D:resources/auto-moderation.mdx §Trigger
 * Metadata Field Limits, §Trigger Types; OAS `KeywordUpsertRequest` and its kin).
 */
export const MAX_RULE_NAME_LENGTH = 100;
export const MAX_KEYWORDS = 1000;
export const MAX_KEYWORD_LENGTH = 60;
export const MAX_REGEX_PATTERNS = 10;
export const MAX_REGEX_LENGTH = 260;
/** A KEYWORD (and MEMBER_PROFILE) rule's allow list. */
export const MAX_KEYWORD_ALLOW_LIST = 100;
/** A KEYWORD_PRESET rule's allow list. */
export const MAX_PRESET_ALLOW_LIST = 1000;
export const MAX_MENTION_TOTAL_LIMIT = 50;
export const MAX_EXEMPT_ROLES = 20;
export const MAX_EXEMPT_CHANNELS = 50;
export const MIN_ACTIONS = 1;
export const MAX_ACTIONS = 5;
/** BLOCK_MESSAGE's `custom_message`: the docs say 150 (the OAS 300; we keep the docs'). */
export const MAX_CUSTOM_MESSAGE_LENGTH = 150;
/** TIMEOUT's `duration_seconds`: four weeks. */
export const MAX_TIMEOUT_SECONDS = 2_419_200;
/**
 * The most a compiled regex program may hold (RE2's instruction count): a pattern past it
 * (nested counted repeats) is refused at creation, so that no rule costs more than a
 * bounded, linear scan of a message.
 */
export const MAX_REGEX_PROGRAM_SIZE = 1_000;

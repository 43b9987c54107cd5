/** Gateway opcodes (D:topics/opcodes-and-status-codes.mdx, facts §10). */
export const Op = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  PRESENCE_UPDATE: 3,
  VOICE_STATE_UPDATE: 4,
  RESUME: 6,
  RECONNECT: 7,
  REQUEST_GUILD_MEMBERS: 8,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
  REQUEST_SOUNDBOARD_SOUNDS: 31,
  REQUEST_CHANNEL_INFO: 43,
} as const;

/** Gateway close codes with the reason text Discord sends (facts §10). */
export const Close = {
  UNKNOWN_ERROR: { code: 4000, reason: 'Unknown error.' },
  UNKNOWN_OPCODE: { code: 4001, reason: 'Unknown opcode.' },
  DECODE_ERROR: { code: 4002, reason: 'Decode error.' },
  NOT_AUTHENTICATED: { code: 4003, reason: 'Not authenticated.' },
  AUTHENTICATION_FAILED: { code: 4004, reason: 'Authentication failed.' },
  ALREADY_AUTHENTICATED: { code: 4005, reason: 'Already authenticated.' },
  INVALID_SEQ: { code: 4007, reason: 'Invalid seq.' },
  RATE_LIMITED: { code: 4008, reason: 'Rate limited.' },
  SESSION_TIMED_OUT: { code: 4009, reason: 'Session timed out.' },
  INVALID_SHARD: { code: 4010, reason: 'Invalid shard.' },
  SHARDING_REQUIRED: { code: 4011, reason: 'Sharding required.' },
  INVALID_API_VERSION: { code: 4012, reason: 'Invalid API version.' },
  INVALID_INTENTS: { code: 4013, reason: 'Invalid intent(s).' },
  DISALLOWED_INTENTS: { code: 4014, reason: 'Disallowed intent(s).' },
} as const;

/** One close code with its reason. */
export type CloseCode = (typeof Close)[keyof typeof Close];

/** The gateway version this server speaks. */
export const GATEWAY_VERSION = 10;
/** Payloads a client may send per window before 4008 (facts §10). */
export const MAX_SENDS_PER_WINDOW = 120;
/** The send-limit window. */
export const SEND_WINDOW_MS = 60_000;
/** Identifies allowed per application per day (`session_start_limit.total`, facts §10). */
export const MAX_IDENTIFIES_PER_DAY = 1000;
/** The window `session_start_limit.total` counts over (D:events/gateway.mdx §Identifying: 24 hours). */
export const SESSION_START_WINDOW_MS = 24 * 60 * 60 * 1000;
/** `session_start_limit.max_concurrency` of every bot that is not a large one (D:events/gateway.mdx §Sharding). */
export const MAX_CONCURRENCY = 1;
/** The window of `max_concurrency` (D:events/gateway.mdx §Rate Limiting: "per 5 seconds"). */
export const IDENTIFY_CONCURRENCY_WINDOW_MS = 5000;
/** Largest payload a client may send (Discord closes larger ones with 4002). */
export const MAX_PAYLOAD_BYTES = 4096;

/** Gateway intents the dispatcher filters by or checks (D:events/gateway.mdx §List of Intents). */
export const Intent = {
  /** GUILD_CREATE/UPDATE/DELETE, GUILD_ROLE_CREATE/UPDATE/DELETE, CHANNEL_* (CHANNEL_PINS_UPDATE in guilds), VOICE_CHANNEL_STATUS_UPDATE, VOICE_CHANNEL_START_TIME_UPDATE. */
  GUILDS: 1 << 0,
  /** Privileged: GUILD_MEMBER_ADD/UPDATE/REMOVE; Request Guild Members for the whole list. */
  GUILD_MEMBERS: 1 << 1,
  /** VOICE_STATE_UPDATE. */
  GUILD_VOICE_STATES: 1 << 7,
  /** Privileged: PRESENCE_UPDATE; `presences` in Request Guild Members. */
  GUILD_PRESENCES: 1 << 8,
  /** Privileged: message content fields (no event of its own). */
  MESSAGE_CONTENT: 1 << 15,
  /** MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE in guilds. */
  GUILD_MESSAGES: 1 << 9,
  /** MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE, CHANNEL_PINS_UPDATE in DMs. */
  DIRECT_MESSAGES: 1 << 12,
} as const;

/**
 * The privileged intents and the application flags that grant them (D:resources/application.mdx
 * §Application Flags; D:events/gateway.mdx §Privileged Intents): the full flag (an app in
 * `PRIVILEGED_INTENTS_GUILD_THRESHOLD` guilds or more needs it: "bots in 100 or more
 * servers") or its `_LIMITED` flag (enough below the threshold).
 */
export const PRIVILEGED_INTENTS = [
  { intent: Intent.GUILD_PRESENCES, full: 1 << 12, limited: 1 << 13 },
  { intent: Intent.GUILD_MEMBERS, full: 1 << 14, limited: 1 << 15 },
  { intent: Intent.MESSAGE_CONTENT, full: 1 << 18, limited: 1 << 19 },
] as const;
/** From this many guilds on, only the full flag grants a privileged intent (D:resources/application.mdx). */
export const PRIVILEGED_INTENTS_GUILD_THRESHOLD = 100;

/** Members per Guild Members Chunk (D:events/gateway-events.mdx §Request Guild Members). */
export const MEMBERS_PER_CHUNK = 1000;
/** Members a `query` prefix or a `user_ids` list returns at most (the same section). */
export const MAX_MEMBERS_PER_QUERY = 100;
/** A Request Guild Members' `nonce` longer than this is ignored (the same section). */
export const MAX_NONCE_BYTES = 32;
/** One request for ALL members of a guild per bot per this (D:change-log.mdx, 30 seconds). */
export const ALL_MEMBERS_REQUEST_INTERVAL_MS = 30_000;

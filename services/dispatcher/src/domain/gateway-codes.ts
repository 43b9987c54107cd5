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

/** Gateway intents the dispatcher filters by (D:events/gateway.mdx §List of Intents). */
export const Intent = {
  /** GUILD_CREATE …, CHANNEL_PINS_UPDATE in guilds, VOICE_CHANNEL_STATUS_UPDATE, VOICE_CHANNEL_START_TIME_UPDATE. */
  GUILDS: 1 << 0,
  /** VOICE_STATE_UPDATE. */
  GUILD_VOICE_STATES: 1 << 7,
  /** PRESENCE_UPDATE (privileged). */
  GUILD_PRESENCES: 1 << 8,
  /** MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE in guilds. */
  GUILD_MESSAGES: 1 << 9,
  /** MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE, CHANNEL_PINS_UPDATE in DMs. */
  DIRECT_MESSAGES: 1 << 12,
} as const;

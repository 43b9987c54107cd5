import { Close, MAX_PAYLOAD_BYTES, Op, type CloseCode } from './gateway-codes';
import { readRequestGuildMembers, type RequestGuildMembers } from './read-request-guild-members';

/** Where a connection is in the protocol. */
export type ConnectionPhase = 'hello' | 'ready';

/** What to do with one client payload. */
export type InboundDecision =
  | { kind: 'close'; close: CloseCode }
  | { kind: 'heartbeat'; seq: number | null }
  | { kind: 'identify'; identify: IdentifyRequest }
  | { kind: 'resume'; resume: ResumeRequest }
  | { kind: 'presence'; d: unknown }
  | { kind: 'voice-state'; voice: VoiceStateCommand }
  | { kind: 'channel-info'; request: ChannelInfoCommand }
  | { kind: 'request-guild-members'; request: RequestGuildMembers }
  | { kind: 'ignore' };

/** Op 4 Voice State Update (D:events/gateway-events.mdx §Update Voice State). */
export interface VoiceStateCommand {
  guildId: string;
  /** null: leave the guild's voice channel. */
  channelId: string | null;
  selfMute: boolean;
  selfDeaf: boolean;
}

/** Op 43 Request Channel Info (D:events/gateway-events.mdx §Request Channel Info). */
export interface ChannelInfoCommand {
  guildId: string;
  fields: ChannelInfoField[];
}

/** The fields Channel Info can carry: "currently `status` and `voice_start_time`". */
export const CHANNEL_INFO_FIELDS = ['status', 'voice_start_time'] as const;
/** One of CHANNEL_INFO_FIELDS. */
export type ChannelInfoField = (typeof CHANNEL_INFO_FIELDS)[number];

/** The fields of Identify (op 2) this server reads. */
export interface IdentifyRequest {
  /** The token, without its `Bot ` or `Bearer ` prefix. */
  token: string;
  /** The prefix the token came with: `Bot ` (only a bot's), `Bearer ` (an OAuth2 access token), or none. */
  prefix: TokenPrefix;
  /**
   * The intents asked for; null when absent or not a bit set. A bot must send them (4013,
   * `identifyAs`); a user's client sends `capabilities` instead, and its sessions need none.
   */
  intents: number | null;
  shard: [number, number] | null;
  /** Identify's `presence` (the initial presence), unread; undefined when absent. */
  presence: unknown;
  /** Identify's `capabilities` bit set; 0 when absent or not one. */
  capabilities: number;
  /**
   * Identify's `large_threshold` (D:events/gateway-events.mdx §Identify: 50-250, default 50):
   * above that many members a guild is `large` and its GUILD_CREATE lists no offline member.
   * An integer out of range counts as the nearest bound, anything else as the default.
   */
  largeThreshold: number;
}

/** The fields of Resume (op 6). */
export interface ResumeRequest {
  token: string;
  prefix: TokenPrefix;
  sessionId: string;
  seq: number;
}

/** Ops a ready session may send that this server accepts and does nothing with. */
const ACCEPTED_AND_IGNORED: ReadonlySet<number> = new Set([Op.REQUEST_SOUNDBOARD_SOUNDS]);

/** The largest snowflake: PostgreSQL's signed 64-bit range, which ids stay within. */
const MAX_SNOWFLAKE = (1n << 63n) - 1n;

/** A snowflake as a command carries it (a decimal string; discord.js sends strings), or undefined. */
function readSnowflake(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{1,19}$/.test(value)) return undefined;
  return BigInt(value) <= MAX_SNOWFLAKE ? value : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The prefix of an Identify's or a Resume's token: what kind of token it says it is. */
export type TokenPrefix = 'Bot' | 'Bearer' | null;

/**
 * The token without its prefix, and the prefix: `Bot ` (which bots keep on it as often as
 * not), `Bearer ` (a Social SDK client's OAuth2 access token), or none.
 */
function readToken(token: string): { token: string; prefix: TokenPrefix } {
  if (token.startsWith('Bot ')) return { token: token.slice(4), prefix: 'Bot' };
  if (token.startsWith('Bearer ')) return { token: token.slice(7), prefix: 'Bearer' };
  return { token, prefix: null };
}

/**
 * The protocol's answer to one text frame, as a pure function of the connection's phase:
 * undecodable → 4002; unknown op → 4001; anything but heartbeat, identify or resume
 * before identify → 4003; identify or resume twice → 4005; bad shard → 4010; a Request
 * Guild Members (op 8) of the wrong shape → 4001. What an Identify then starts (or the
 * close it ends with) is `identify-flow.ts`'s to decide.
 */
export function decideInbound(phase: ConnectionPhase, text: string): InboundDecision {
  if (text.length > MAX_PAYLOAD_BYTES) return { kind: 'close', close: Close.DECODE_ERROR };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: 'close', close: Close.DECODE_ERROR };
  }
  if (!isObject(message) || typeof message.op !== 'number')
    return { kind: 'close', close: Close.DECODE_ERROR };
  const d = message.d;
  switch (message.op) {
    case Op.HEARTBEAT:
      return { kind: 'heartbeat', seq: typeof d === 'number' ? d : null };
    case Op.IDENTIFY:
      if (phase === 'ready') return { kind: 'close', close: Close.ALREADY_AUTHENTICATED };
      return readIdentify(d);
    case Op.RESUME:
      if (phase === 'ready') return { kind: 'close', close: Close.ALREADY_AUTHENTICATED };
      if (
        !isObject(d) ||
        typeof d.token !== 'string' ||
        typeof d.session_id !== 'string' ||
        typeof d.seq !== 'number'
      ) {
        return { kind: 'close', close: Close.DECODE_ERROR };
      }
      return { kind: 'resume', resume: { ...readToken(d.token), sessionId: d.session_id, seq: d.seq } };
    case Op.PRESENCE_UPDATE:
      if (phase !== 'ready') return { kind: 'close', close: Close.NOT_AUTHENTICATED };
      return { kind: 'presence', d };
    case Op.VOICE_STATE_UPDATE:
      if (phase !== 'ready') return { kind: 'close', close: Close.NOT_AUTHENTICATED };
      return readVoiceState(d);
    case Op.REQUEST_CHANNEL_INFO:
      if (phase !== 'ready') return { kind: 'close', close: Close.NOT_AUTHENTICATED };
      return readChannelInfo(d);
    case Op.REQUEST_GUILD_MEMBERS: {
      if (phase !== 'ready') return { kind: 'close', close: Close.NOT_AUTHENTICATED };
      // A payload of the wrong shape for its opcode is 4001 (D:topics/opcodes-and-status-codes.mdx).
      const request = readRequestGuildMembers(d);
      return request
        ? { kind: 'request-guild-members', request }
        : { kind: 'close', close: Close.UNKNOWN_OPCODE };
    }
    default:
      if (!ACCEPTED_AND_IGNORED.has(message.op)) return { kind: 'close', close: Close.UNKNOWN_OPCODE };
      return phase === 'ready' ? { kind: 'ignore' } : { kind: 'close', close: Close.NOT_AUTHENTICATED };
  }
}

/** Identify's `large_threshold` bounds; the lower one is its default. */
const MIN_LARGE_THRESHOLD = 50;
const MAX_LARGE_THRESHOLD = 250;

function readIdentify(d: unknown): InboundDecision {
  if (!isObject(d) || typeof d.token !== 'string') return { kind: 'close', close: Close.DECODE_ERROR };
  const token = readToken(d.token);
  const intents =
    typeof d.intents === 'number' && Number.isInteger(d.intents) && d.intents >= 0 ? d.intents : null;
  let shard: [number, number] | null = null;
  if (d.shard !== undefined && d.shard !== null) {
    const [id, count] = Array.isArray(d.shard) ? d.shard : [];
    if (
      !Number.isInteger(id) ||
      !Number.isInteger(count) ||
      (count as number) < 1 ||
      (id as number) < 0 ||
      (id as number) >= (count as number)
    ) {
      return { kind: 'close', close: Close.INVALID_SHARD };
    }
    shard = [id as number, count as number];
  }
  const capabilities =
    typeof d.capabilities === 'number' && Number.isSafeInteger(d.capabilities) && d.capabilities >= 0
      ? d.capabilities
      : 0;
  const largeThreshold = Number.isInteger(d.large_threshold)
    ? Math.min(MAX_LARGE_THRESHOLD, Math.max(MIN_LARGE_THRESHOLD, d.large_threshold as number))
    : MIN_LARGE_THRESHOLD;
  return {
    kind: 'identify',
    identify: { ...token, intents, shard, capabilities, largeThreshold, presence: d.presence ?? undefined },
  };
}

/**
 * Op 4's `d`: `guild_id`, `channel_id` (null to leave), `self_mute`, `self_deaf`. A wrong
 * type is a malformed payload (4002), as for every command.
 */
function readVoiceState(d: unknown): InboundDecision {
  const decodeError: InboundDecision = { kind: 'close', close: Close.DECODE_ERROR };
  if (!isObject(d)) return decodeError;
  const guildId = readSnowflake(d.guild_id);
  const channelId = d.channel_id === null || d.channel_id === undefined ? null : readSnowflake(d.channel_id);
  if (guildId === undefined || channelId === undefined) return decodeError;
  if (typeof d.self_mute !== 'boolean' || typeof d.self_deaf !== 'boolean') return decodeError;
  return { kind: 'voice-state', voice: { guildId, channelId, selfMute: d.self_mute, selfDeaf: d.self_deaf } };
}

/** Op 43's `d`: `guild_id` and `fields`, a list of field names (4002 when either is malformed). */
function readChannelInfo(d: unknown): InboundDecision {
  const decodeError: InboundDecision = { kind: 'close', close: Close.DECODE_ERROR };
  if (!isObject(d)) return decodeError;
  const guildId = readSnowflake(d.guild_id);
  if (guildId === undefined || !Array.isArray(d.fields)) return decodeError;
  const fields = new Set<ChannelInfoField>();
  for (const field of d.fields as unknown[]) {
    if (typeof field !== 'string') return decodeError;
    // A field this server does not know yet is skipped: the list is documented to grow.
    if ((CHANNEL_INFO_FIELDS as readonly string[]).includes(field)) fields.add(field as ChannelInfoField);
  }
  return { kind: 'channel-info', request: { guildId, fields: [...fields] } };
}

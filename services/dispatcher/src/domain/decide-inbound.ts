import { Close, MAX_PAYLOAD_BYTES, Op, type CloseCode } from './gateway-codes';

/** Where a connection is in the protocol. */
export type ConnectionPhase = 'hello' | 'ready';

/** What to do with one client payload. */
export type InboundDecision =
  | { kind: 'close'; close: CloseCode }
  | { kind: 'heartbeat'; seq: number | null }
  | { kind: 'identify'; identify: IdentifyRequest }
  | { kind: 'resume'; resume: ResumeRequest }
  | { kind: 'ignore' };

/** The fields of Identify (op 2) this server reads. */
export interface IdentifyRequest {
  /** The token, without the `Bot ` prefix some clients keep on it. */
  token: string;
  /** Whether the token came with the `Bot ` prefix: then it can only be a bot's. */
  botPrefixed: boolean;
  /**
   * The intents asked for; null when absent or not a bit set. A bot must send them (4013);
   * a user's chat client sends `capabilities` instead, and its sessions need none.
   */
  intents: number | null;
  shard: [number, number] | null;
  /** Identify's `capabilities` bit set; 0 when absent or not one. */
  capabilities: number;
}

/** The fields of Resume (op 6). */
export interface ResumeRequest {
  token: string;
  botPrefixed: boolean;
  sessionId: string;
  seq: number;
}

/** Ops a ready session may send that this server accepts and does nothing with. */
const ACCEPTED_AND_IGNORED: ReadonlySet<number> = new Set([
  Op.PRESENCE_UPDATE,
  Op.VOICE_STATE_UPDATE,
  Op.REQUEST_GUILD_MEMBERS,
  Op.REQUEST_SOUNDBOARD_SOUNDS,
  Op.REQUEST_CHANNEL_INFO,
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The token without the `Bot ` prefix some clients keep on it, and whether it had it. */
function readToken(token: string): { token: string; botPrefixed: boolean } {
  return token.startsWith('Bot ')
    ? { token: token.slice(4), botPrefixed: true }
    : { token, botPrefixed: false };
}

/**
 * The protocol's answer to one text frame, as a pure function of the connection's phase:
 * undecodable → 4002; unknown op → 4001; anything but heartbeat, identify or resume
 * before identify → 4003; identify or resume twice → 4005; bad shard → 4010; intents
 * missing with a `Bot ` token → 4013 (without the prefix the token may be a user's
 * session token, which needs no intents: the connection decides once it knows whose).
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
    default:
      if (!ACCEPTED_AND_IGNORED.has(message.op)) return { kind: 'close', close: Close.UNKNOWN_OPCODE };
      return phase === 'ready' ? { kind: 'ignore' } : { kind: 'close', close: Close.NOT_AUTHENTICATED };
  }
}

function readIdentify(d: unknown): InboundDecision {
  if (!isObject(d) || typeof d.token !== 'string') return { kind: 'close', close: Close.DECODE_ERROR };
  const token = readToken(d.token);
  const intents =
    typeof d.intents === 'number' && Number.isInteger(d.intents) && d.intents >= 0 ? d.intents : null;
  if (intents === null && token.botPrefixed) return { kind: 'close', close: Close.INVALID_INTENTS };
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
  return { kind: 'identify', identify: { ...token, intents, shard, capabilities } };
}

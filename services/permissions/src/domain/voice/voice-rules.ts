import { FormErrors, getField, readString, type JsonObject } from '@acs/validation';
import { ChannelType } from '../channel-types';
import { MAX_VOICE_STATUS_LENGTH } from '../limits';
import { PERMISSION_FLAGS } from '../permission-flags';

/** Whether a channel type is one a member connects to: voice or stage (D:resources/channel.mdx). */
export function isVoiceChannelType(type: number): boolean {
  return type === ChannelType.GUILD_VOICE || type === ChannelType.GUILD_STAGE_VOICE;
}

/**
 * What setting a voice channel's status takes (D:resources/channel.mdx §Set Voice Channel
 * Status): SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS too when the caller is not
 * connected to that channel. VIEW_CHANNEL first: a channel one cannot see is not theirs to label.
 */
export function voiceStatusPermissions(connected: boolean): bigint {
  return (
    PERMISSION_FLAGS.VIEW_CHANNEL |
    PERMISSION_FLAGS.SET_VOICE_CHANNEL_STATUS |
    (connected ? 0n : PERMISSION_FLAGS.MANAGE_CHANNELS)
  );
}

/** What joining a voice channel takes (D:topics/permissions.mdx: CONNECT, on a channel one can see). */
export const VOICE_CONNECT_PERMISSIONS = PERMISSION_FLAGS.VIEW_CHANNEL | PERMISSION_FLAGS.CONNECT;

/**
 * The body of `PUT /channels/{id}/voice-status`: `{status: ?string}`, at most 500
 * characters; null (or an absent or empty status) clears it. 400 / 50035 otherwise.
 */
export function validateVoiceStatusBody(body: JsonObject): string | null {
  const errors = new FormErrors();
  const value = getField(body, 'status');
  if (value === null || value === undefined) return null;
  const status = readString(value, errors, ['status']);
  if (status !== undefined && [...status].length > MAX_VOICE_STATUS_LENGTH) {
    errors.add(['status'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_VOICE_STATUS_LENGTH} or fewer in length.`);
  }
  errors.throwIfAny();
  return status === undefined || status === '' ? null : status;
}

/** A stored voice state (a member connected to a voice or stage channel). */
export interface VoiceStateRecord {
  guildId: string;
  userId: string;
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
}

/** What op 4 asks: join (or move to) `channelId`, or leave with null. */
export interface VoiceStateRequest {
  guildId: string;
  userId: string;
  channelId: string | null;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
}

/** The voice state object's fields ACS renders. */
export interface VoiceStateJson {
  guild_id: string;
  channel_id: string | null;
  user_id: string;
  session_id: string;
  deaf: boolean;
  mute: boolean;
  self_deaf: boolean;
  self_mute: boolean;
  self_video: boolean;
  suppress: boolean;
  request_to_speak_timestamp: string | null;
}

/**
 * The voice state object (D:resources/voice.mdx §Voice State Object) as VOICE_STATE_UPDATE
 * carries it; ACS has no server mute or deafen, video, streams or stage requests.
 */
export function renderVoiceState(state: VoiceStateRequest): VoiceStateJson {
  return {
    guild_id: state.guildId,
    channel_id: state.channelId,
    user_id: state.userId,
    session_id: state.sessionId,
    deaf: false,
    mute: false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** Unix seconds of a voice session's start, as Channel Info shows it (D:events/gateway-events.mdx §Channel Info). */
export function toVoiceStartTime(at: Date | null): number | null {
  return at === null ? null : Math.floor(at.getTime() / 1000);
}

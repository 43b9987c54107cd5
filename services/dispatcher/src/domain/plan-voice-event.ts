import type { CheckedEvent } from '@acs/events';
import { Intent } from './gateway-codes';
import type { GatewayRoute } from './gateway-route';

/** permissions' voice events, each a dispatch to the bots of the guild. */
export const VOICE_EVENTS = [
  'permissions.voice_state.updated',
  'permissions.voice_channel.status_updated',
  'permissions.voice_channel.start_time_updated',
] as const;

/** A voice event, checked against the catalog. */
export type VoiceEvent = CheckedEvent<(typeof VOICE_EVENTS)[number]>;

/** Whether an event is one of VOICE_EVENTS. */
export function isVoiceEvent(event: CheckedEvent): event is VoiceEvent {
  return (VOICE_EVENTS as readonly string[]).includes(event.name);
}

/** The guild a voice event is about. */
export function guildOfVoiceEvent(event: VoiceEvent): string {
  return event.data.guild_id;
}

/**
 * The dispatches of a voice event to the sessions of the guild's bots `applicationIds`, on
 * the guild's shard (D:events/gateway.mdx §List of Intents): VOICE_STATE_UPDATE (the voice
 * state object) with GUILD_VOICE_STATES, the bot whose state it is included (its client
 * waits for it to know it joined); VOICE_CHANNEL_STATUS_UPDATE and
 * VOICE_CHANNEL_START_TIME_UPDATE with GUILDS.
 */
export function planVoiceEvent(event: VoiceEvent, applicationIds: readonly string[]): GatewayRoute[] {
  const [t, intent] =
    event.name === 'permissions.voice_state.updated'
      ? ['VOICE_STATE_UPDATE', Intent.GUILD_VOICE_STATES]
      : event.name === 'permissions.voice_channel.status_updated'
        ? ['VOICE_CHANNEL_STATUS_UPDATE', Intent.GUILDS]
        : ['VOICE_CHANNEL_START_TIME_UPDATE', Intent.GUILDS];
  const guildId = event.data.guild_id;
  return applicationIds.map((applicationId) => ({
    to: 'bot',
    applicationId,
    message: { kind: 'dispatch', t, d: event.data, guildId, intent },
  }));
}

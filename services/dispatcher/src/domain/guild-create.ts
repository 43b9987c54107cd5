/**
 * GUILD_CREATE's `d` from a guild object (D:events/gateway-events.mdx Guild Create): the
 * guild plus the extra fields of the event. Members, channels and presences are lists
 * this service does not stream yet, so they are empty.
 */
export function guildCreatePayload(
  guild: Record<string, unknown>,
  joinedAt: string,
): Record<string, unknown> {
  return {
    ...guild,
    joined_at: joinedAt,
    large: false,
    unavailable: false,
    member_count: typeof guild.approximate_member_count === 'number' ? guild.approximate_member_count : 1,
    voice_states: [],
    members: [],
    channels: [],
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

/**
 * The id of the Activity instance an interaction launches, in Discord's form
 * ("i-<snowflake>-gc-<guild>-<channel>" in a guild, "i-<snowflake>-pc-<channel>" in a
 * private channel; D:activities examples): opaque to clients, unique per launch because
 * the interaction id is.
 */
export function activityInstanceId(interactionId: string, guildId: string | null, channelId: string): string {
  return guildId === null
    ? `i-${interactionId}-pc-${channelId}`
    : `i-${interactionId}-gc-${guildId}-${channelId}`;
}

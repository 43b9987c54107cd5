/**
 * A guild a bot is installed in, with the permissions granted at installation (a decimal
 * bit set): its managed role, on top of @everyone's.
 */
export interface GuildGrant {
  guildId: string;
  permissions: string;
}

import type { Guild, Role } from '../guild-model';
import { renderRole, sortRoles, type RoleJson } from './render-role';

/** A guild as the API shows it: the fields of `GuildResponse` (OpenAPI), most at their defaults. */
export type GuildJson = { id: string; name: string; owner_id: string; roles: RoleJson[] } & Record<
  string,
  unknown
>;

/**
 * Renders a guild with its roles. ACS models names, owners, the preferred locale and roles
 * only; every other required field of Discord's guild object has the value a new guild has.
 */
export function renderGuild(guild: Guild, roles: readonly Role[]): GuildJson {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    description: null,
    home_header: null,
    splash: null,
    discovery_splash: null,
    features: [],
    banner: null,
    owner_id: guild.ownerId,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: null,
    system_channel_flags: 0,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    roles: sortRoles(roles).map(renderRole),
    default_message_notifications: 0,
    mfa_level: 0,
    explicit_content_filter: 0,
    max_presences: null,
    max_members: 500000,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale,
    rules_channel_id: null,
    safety_alerts_channel_id: null,
    public_updates_channel_id: null,
    premium_progress_bar_enabled: false,
    nsfw: false,
    nsfw_level: 0,
    emojis: [],
    stickers: [],
    incidents_data: null,
  };
}

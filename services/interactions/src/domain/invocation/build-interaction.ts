import type { Access } from './decide-access';
import type { InvocationParties, InvocationPlace, JsonRecord } from './invocation-facts';
import type { CommandData } from './validate-command-data';

/** The interactions system version every interaction carries (A1: always 1, not the command's). */
const INTERACTION_VERSION = 1;
/** A guild's upload limit by boost tier (tiers 2 and 3 raise the default 20 MiB). */
const ATTACHMENT_SIZE_LIMITS: Record<number, number> = { 2: 50 * 1024 * 1024, 3: 100 * 1024 * 1024 };
/** The upload limit without boosts, and outside guilds. */
export const DEFAULT_ATTACHMENT_SIZE_LIMIT = 20 * 1024 * 1024;
/** The locale of a guild or user that has none. */
const DEFAULT_LOCALE = 'en-US';

/** Everything an interaction object is built from. */
export interface InteractionInput {
  id: string;
  token: string;
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 APPLICATION_COMMAND_AUTOCOMPLETE or 5 MODAL_SUBMIT. */
  type: number;
  applicationId: string;
  guildId: string | null;
  channelId: string;
  /** A command's data, or a component's or modal submit's (A2). */
  data: CommandData | JsonRecord;
  parties: InvocationParties;
  place: InvocationPlace;
  access: Access;
  /** The requester's locale (the request's, else the user's setting). */
  locale: string;
}

/** A guild's upload limit in bytes (its boost tier), or the default outside guilds. */
export function attachmentSizeLimitOf(guild: JsonRecord | null): number {
  const tier = guild?.premium_tier;
  return (
    (typeof tier === 'number' ? ATTACHMENT_SIZE_LIMITS[tier] : undefined) ?? DEFAULT_ATTACHMENT_SIZE_LIMIT
  );
}

/**
 * The channel as an interaction shows it (a partial channel): with the invoker's
 * `permissions`; a DM's `recipient_ids` become the `recipients` this service knows as
 * users (the invoker, the users the invocation names), the bot left out as a DM's
 * viewer is.
 */
function partialChannel(input: InteractionInput): JsonRecord {
  const { recipient_ids: recipientIds, ...channel } = input.place.channel;
  if (input.guildId !== null) return { ...channel, permissions: input.place.userPermissions };
  if (channel.recipients !== undefined || !Array.isArray(recipientIds)) return channel;
  const known: Record<string, JsonRecord> = {
    ...input.parties.resolvedUsers,
    [String(input.parties.user.id)]: input.parties.user,
  };
  const recipients = recipientIds.flatMap((id) =>
    id !== input.applicationId && typeof id === 'string' && known[id] ? [known[id]] : [],
  );
  return { ...channel, recipients };
}

/**
 * The invoker's member as permissions stored it (roles, joined_at, `permissions` in the
 * channel...), never one made up: checkGuildPresence has refused a user who is not a member.
 */
function storedMember(place: InvocationPlace): JsonRecord {
  if (place.member === null) throw new Error('an interaction in a guild is built for a member only');
  return place.member;
}

/**
 * The interaction object the application receives (A1, FACTS §8), keys in the real API's
 * order: in a guild `guild` {id, features, locale}, `guild_id`, `member` (with `user` and
 * `permissions`), `guild_locale`; elsewhere `user`. `version` is always 1; `entitlements`
 * are the invoker's active ones (the user's and the guild's, facts C).
 */
export function buildInteraction(input: InteractionInput): JsonRecord {
  const { place, parties } = input;
  const guild = place.guild;
  const inGuild = input.guildId !== null;
  const guildLocale = typeof guild?.preferred_locale === 'string' ? guild.preferred_locale : DEFAULT_LOCALE;
  return {
    id: input.id,
    application_id: input.applicationId,
    type: input.type,
    data: input.data,
    ...(inGuild
      ? {
          guild: {
            id: input.guildId,
            features: Array.isArray(guild?.features) ? guild.features : [],
            locale: guildLocale,
          },
          guild_id: input.guildId,
        }
      : {}),
    channel: partialChannel(input),
    channel_id: input.channelId,
    ...(inGuild ? { member: { ...storedMember(place), user: parties.user } } : { user: parties.user }),
    token: input.token,
    version: INTERACTION_VERSION,
    app_permissions: place.appPermissions,
    locale: input.locale,
    ...(inGuild ? { guild_locale: guildLocale } : {}),
    entitlements: parties.entitlements,
    authorizing_integration_owners: input.access.authorizingIntegrationOwners,
    context: input.access.context,
    attachment_size_limit: place.attachmentSizeLimit ?? attachmentSizeLimitOf(guild),
  };
}

/** The interaction as stored and shown in outcomes: everything but its token. */
export function withoutToken(interaction: JsonRecord): JsonRecord {
  const rest = { ...interaction };
  delete rest.token;
  return rest;
}

/** The locale of an invocation: the request's (X-Discord-Locale...), else the user's setting. */
export function invocationLocale(requestLocale: string, userLocale: string): string {
  return requestLocale || userLocale || DEFAULT_LOCALE;
}

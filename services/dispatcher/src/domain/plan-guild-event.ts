import type { CheckedEvent } from '@acs/events';
import { Intent } from './gateway-codes';
import type { GatewayRoute } from './gateway-route';

/** The permissions service's guild events: GUILD_MEMBER_* and GUILD_ROLE_* to the guild's bots. */
export const GUILD_EVENTS = [
  'permissions.member.added',
  'permissions.member.updated',
  'permissions.member.removed',
  'permissions.role.created',
  'permissions.role.updated',
  'permissions.role.deleted',
] as const;

/** A guild event, checked against the catalog. */
export type GuildEvent = CheckedEvent<(typeof GUILD_EVENTS)[number]>;

const GUILD_EVENT_NAMES: ReadonlySet<string> = new Set(GUILD_EVENTS);

/** Whether an event is one of the guild's member and role events. */
export function isGuildEvent(event: CheckedEvent): event is GuildEvent {
  return GUILD_EVENT_NAMES.has(event.name);
}

const ROLE_DISPATCHES = {
  'permissions.role.created': 'GUILD_ROLE_CREATE',
  'permissions.role.updated': 'GUILD_ROLE_UPDATE',
} as const;

/**
 * The dispatches of a guild event (D:events/gateway-events.mdx §Guild Member Add/Update/Remove,
 * §Guild Role Create/Update/Delete) to every bot that is a member of the guild (`botIds`),
 * on the guild's shard:
 * - GUILD_MEMBER_ADD: the member object with the full `user` and `guild_id`; GUILD_MEMBER_UPDATE
 *   the same fields; GUILD_MEMBER_REMOVE `{guild_id, user}`; each for the GUILD_MEMBERS intent,
 *   but a bot's own GUILD_MEMBER_UPDATE, which it receives regardless (D:events/gateway.mdx
 *   §Caveats). A bot that joins learns its guild from GUILD_CREATE, not from its own
 *   GUILD_MEMBER_ADD (our reading: the docs name GUILD_CREATE for "the current user joins").
 * - GUILD_ROLE_CREATE / UPDATE `{guild_id, role}`, GUILD_ROLE_DELETE `{guild_id, role_id}`,
 *   for the GUILDS intent.
 * `user` is the user as others see them (`{id}` alone when oauth no longer knows it).
 */
export function planGuildEvent(
  event: GuildEvent,
  botIds: readonly string[],
  user: Record<string, unknown> | undefined,
): GatewayRoute[] {
  const { data } = event;
  const guildId = data.guild_id;
  const to = (applicationId: string, t: string, d: unknown, intent?: number): GatewayRoute => ({
    to: 'bot',
    applicationId,
    message: { kind: 'dispatch', t, d, guildId, ...(intent === undefined ? {} : { intent }) },
  });
  switch (event.name) {
    case 'permissions.member.added':
    case 'permissions.member.updated': {
      const { member, user_id: userId } = event.data;
      const d = { ...member, user: user ?? { id: userId }, guild_id: guildId };
      if (event.name === 'permissions.member.added') {
        return botIds
          .filter((id) => id !== userId)
          .map((id) => to(id, 'GUILD_MEMBER_ADD', d, Intent.GUILD_MEMBERS));
      }
      return botIds.map((id) =>
        to(id, 'GUILD_MEMBER_UPDATE', d, id === userId ? undefined : Intent.GUILD_MEMBERS),
      );
    }
    case 'permissions.member.removed': {
      const d = { guild_id: guildId, user: user ?? { id: event.data.user_id } };
      return botIds
        .filter((id) => id !== event.data.user_id)
        .map((id) => to(id, 'GUILD_MEMBER_REMOVE', d, Intent.GUILD_MEMBERS));
    }
    case 'permissions.role.created':
    case 'permissions.role.updated': {
      const d = { guild_id: guildId, role: event.data.role };
      return botIds.map((id) => to(id, ROLE_DISPATCHES[event.name], d, Intent.GUILDS));
    }
    case 'permissions.role.deleted': {
      const d = { guild_id: guildId, role_id: event.data.role_id };
      return botIds.map((id) => to(id, 'GUILD_ROLE_DELETE', d, Intent.GUILDS));
    }
  }
}

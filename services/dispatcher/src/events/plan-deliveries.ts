import { DiscordError } from '@acs/discord-errors';
import type { ApplicationSettings, OAuthClient } from '../clients/oauth-client';
import type { GuildSnapshot, PermissionsClient } from '../clients/permissions-client';
import type { BotMessage, GatewayRoute } from '../domain/gateway-route';
import { guildCreatePayload } from '../domain/guild-create';
import { planEvent, type ApplicationEvent, type DispatchedEvent } from '../domain/plan-event';
import { isGuildEvent, planGuildEvent, type GuildEvent } from '../domain/plan-guild-event';
import { isInteractionEvent, planInteractionEvent } from '../domain/plan-interaction-event';
import { isChannelEvent, onGuildPermissionsChanged, planChannelEvent } from '../domain/plan-channel-event';
import {
  guildOfChannelMessageEvent,
  isChannelMessageEvent,
  planChannelMessageEvent,
} from '../domain/plan-channel-message-event';
import { isAutoModEvent, planAutoModEvent } from '../domain/plan-automod-event';
import { isLobbyEvent, planLobbyEvent, type LobbyEvent } from '../domain/plan-lobby-event';
import { isUserEvent, planUserEvent } from '../domain/plan-user-event';
import { guildOfVoiceEvent, isVoiceEvent, planVoiceEvent } from '../domain/plan-voice-event';
import { eventWebhookBody } from '../domain/webhook-body';
import type { NewDelivery } from '../store/delivery-store';

/** MANAGE_GUILD (1 << 5) (D:topics/permissions.mdx). */
const MANAGE_GUILD = 1n << 5n;

/** The deliveries of one event, with every object they embed looked up. */
export interface PlannedDeliveries {
  webhook: NewDelivery | null;
  /** The gateway dispatches, in the order they are sent. */
  gateway: GatewayRoute[];
}

/**
 * Turns an event into the webhook delivery to record and the gateway dispatches to send,
 * asking oauth and permissions for what they embed (user, guild). A lookup failing for
 * lack of a service throws: the event is then retried, not half delivered. The
 * interactions service's events embed everything already: only their routes are planned.
 */
export async function planDeliveries(
  event: DispatchedEvent,
  oauth: OAuthClient,
  permissions: PermissionsClient,
): Promise<PlannedDeliveries> {
  if (isInteractionEvent(event)) return { webhook: null, gateway: planInteractionEvent(event) };
  if (isChannelMessageEvent(event)) {
    // A guild's message goes to the guild's bots (each session checks that its bot may view the channel).
    const guildId = guildOfChannelMessageEvent(event);
    const bots = guildId === null ? [] : ((await permissions.guildBots([guildId])).get(guildId) ?? []);
    return { webhook: null, gateway: planChannelMessageEvent(event, bots) };
  }
  if (isAutoModEvent(event)) {
    // Only the guild's bots with MANAGE_GUILD there receive AutoMod's events.
    const guildId = event.data.guild_id;
    const bots = (await permissions.guildBots([guildId])).get(guildId) ?? [];
    const managers = await permissions.holdersOf(guildId, bots, MANAGE_GUILD);
    return { webhook: null, gateway: planAutoModEvent(event, managers) };
  }
  if (isLobbyEvent(event)) return planLobbyDeliveries(event, oauth);
  if (isUserEvent(event)) {
    const user = event.name === 'oauth.user.updated' ? await userOf(oauth, event.data.user_id) : undefined;
    return { webhook: null, gateway: planUserEvent(event, user) };
  }
  if (isVoiceEvent(event)) {
    const guildId = guildOfVoiceEvent(event);
    const bots = (await permissions.guildBots([guildId])).get(guildId) ?? [];
    return { webhook: null, gateway: planVoiceEvent(event, bots) };
  }
  if (isGuildEvent(event))
    return { webhook: null, gateway: await planGuildDeliveries(event, oauth, permissions) };
  if (isChannelEvent(event)) return { webhook: null, gateway: planChannelEvent(event) };
  return planApplicationEvent(event, oauth, permissions);
}

/**
 * A guild's member or role event to the sessions of the guild's bots (asked of
 * permissions at delivery), a member's with the user as oauth has it.
 */
async function planGuildDeliveries(
  event: GuildEvent,
  oauth: OAuthClient,
  permissions: PermissionsClient,
): Promise<GatewayRoute[]> {
  const userId = 'user_id' in event.data ? event.data.user_id : undefined;
  const guildId = event.data.guild_id;
  const [bots, user] = await Promise.all([
    permissions.guildBots([guildId]),
    userId === undefined ? undefined : userOf(oauth, userId),
  ]);
  const routes = planGuildEvent(event, bots.get(guildId) ?? [], user);
  // A role's change, or a bot's own roles changing, can flip what the guild's bots may view:
  // the sessions that asked for obfuscation recheck their channels after the event itself.
  const mayChangeViews =
    event.name.startsWith('permissions.role.') || ('bot' in event.data && event.data.bot);
  return mayChangeViews ? [...routes, onGuildPermissionsChanged(guildId)] : routes;
}

/** A user as others see them, or undefined when oauth no longer knows them. */
function userOf(oauth: OAuthClient, userId: string): Promise<Record<string, unknown> | undefined> {
  return oauth.user(userId).catch((error: unknown) => {
    if (error instanceof DiscordError && error.httpStatus === 404) return undefined;
    throw error;
  });
}

/**
 * A lobby event's dispatches to its members and, for a message the application subscribed
 * to (`event_webhooks_types`), its webhook event: to the lobby's override URL when it has
 * one, else to the application's event webhooks URL.
 */
async function planLobbyDeliveries(event: LobbyEvent, oauth: OAuthClient): Promise<PlannedDeliveries> {
  const plan = planLobbyEvent(event);
  if (!plan.webhook) return { webhook: null, gateway: plan.gateway };
  const applicationId = event.data.application_id;
  const settings = await settingsOf(oauth, applicationId, event);
  const url = plan.webhook.overrideUrl ?? settings?.webhookUrl ?? null;
  if (!settings || url === null || !settings.webhookTypes.includes(plan.webhook.type)) {
    return { webhook: null, gateway: plan.gateway };
  }
  return {
    gateway: plan.gateway,
    webhook: {
      eventId: event.id,
      applicationId,
      eventType: plan.webhook.type,
      url,
      body: eventWebhookBody(applicationId, plan.webhook.type, event.occurredAt, plan.webhook.data),
    },
  };
}

/** The deliveries of an event about an application: a webhook event and a bot dispatch. */
async function planApplicationEvent(
  event: ApplicationEvent,
  oauth: OAuthClient,
  permissions: PermissionsClient,
): Promise<PlannedDeliveries> {
  const plan = planEvent(event);
  const { applicationId } = plan;
  // The webhook and the dispatch of one event often embed the same guild: one lookup.
  const guilds = new Map<string, Promise<GuildSnapshot | undefined>>();
  const guildOf = (guildId: string): Promise<GuildSnapshot | undefined> => {
    const known = guilds.get(guildId);
    if (known) return known;
    // With the bot as viewer: a GUILD_CREATE says which channels it may view.
    const lookup = permissions.guild(guildId, applicationId);
    guilds.set(guildId, lookup);
    return lookup;
  };
  let webhook: NewDelivery | null = null;
  if (plan.webhook) {
    const settings = await settingsOf(oauth, applicationId, event);
    if (settings?.webhookUrl && settings.webhookTypes.includes(plan.webhook.type)) {
      const data: Record<string, unknown> = { ...plan.webhook.data };
      if (plan.webhook.userId) data.user = await oauth.user(plan.webhook.userId);
      if (plan.webhook.guildId) {
        const snapshot = await guildOf(plan.webhook.guildId);
        if (snapshot) data.guild = snapshot.guild;
      }
      webhook = {
        eventId: event.id,
        applicationId,
        eventType: plan.webhook.type,
        url: settings.webhookUrl,
        body: eventWebhookBody(applicationId, plan.webhook.type, event.occurredAt, data),
      };
    }
  }
  const gateway: GatewayRoute[] = [];
  const toBot = (message: BotMessage) => gateway.push({ to: 'bot', applicationId, message });
  const g = plan.gateway;
  if (g?.kind === 'dispatch') {
    toBot({ kind: 'dispatch', t: g.t, d: g.d, guildId: g.guildId });
  } else if (g?.kind === 'guild-create') {
    const [snapshot, settings] = await Promise.all([
      guildOf(g.guildId),
      settingsOf(oauth, applicationId, event),
    ]);
    // A deleted guild or application has nothing to announce (and the latter no session).
    if (snapshot && settings) {
      const d = guildCreatePayload({ ...snapshot, botUser: settings.botUser, joinedAt: event.occurredAt });
      toBot({
        kind: 'dispatch',
        t: 'GUILD_CREATE',
        d,
        guildId: g.guildId,
        visibleChannelIds: snapshot.visibleChannelIds,
      });
    }
  } else if (g?.kind === 'guild-delete') {
    toBot({ kind: 'dispatch', t: 'GUILD_DELETE', d: { id: g.guildId }, guildId: g.guildId });
  } else if (g?.kind === 'invalidate-sessions') {
    toBot({ kind: 'invalidate' });
  }
  return { webhook, gateway };
}

/**
 * The application's settings as they were when the event occurred or later, or undefined
 * when oauth no longer knows it. Not older: settings changed through another replica
 * before the event (a webhook URL set) may still be cached here as they were.
 */
function settingsOf(
  oauth: OAuthClient,
  applicationId: string,
  event: { occurredAt: string },
): Promise<ApplicationSettings | undefined> {
  const occurredAt = new Date(event.occurredAt);
  const notBefore = Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt;
  return oauth.settings(applicationId, { notBefore }).catch((error: unknown) => {
    if (error instanceof DiscordError && error.httpStatus === 404) return undefined;
    throw error;
  });
}

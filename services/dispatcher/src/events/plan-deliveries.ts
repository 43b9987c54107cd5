import { DiscordError } from '@acs/discord-errors';
import type { ApplicationSettings, OAuthClient } from '../clients/oauth-client';
import type { GuildSnapshot, PermissionsClient } from '../clients/permissions-client';
import type { BusMessage } from '../delivery/gateway/dispatch-bus';
import { guildCreatePayload } from '../domain/guild-create';
import { planEvent, type DispatchedEvent } from '../domain/plan-event';
import { eventWebhookBody } from '../domain/webhook-body';
import type { NewDelivery } from '../store/delivery-store';

/** The deliveries of one event, with every object they embed looked up. */
export interface PlannedDeliveries {
  webhook: NewDelivery | null;
  gateway: { applicationId: string; message: BusMessage } | null;
}

/**
 * Turns an event into the webhook delivery to record and the gateway message to send,
 * asking oauth and permissions for what they embed (user, guild). A lookup failing for
 * lack of a service throws: the event is then retried, not half delivered.
 */
export async function planDeliveries(
  event: DispatchedEvent,
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
    const lookup = permissions.guild(guildId);
    guilds.set(guildId, lookup);
    return lookup;
  };
  let webhook: NewDelivery | null = null;
  if (plan.webhook) {
    const settings = await settingsOf(oauth, applicationId);
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
  let gateway: PlannedDeliveries['gateway'] = null;
  const g = plan.gateway;
  if (g?.kind === 'dispatch') {
    gateway = { applicationId, message: { kind: 'dispatch', t: g.t, d: g.d, guildId: g.guildId } };
  } else if (g?.kind === 'guild-create') {
    const [snapshot, settings] = await Promise.all([guildOf(g.guildId), settingsOf(oauth, applicationId)]);
    // A deleted guild or application has nothing to announce (and the latter no session).
    if (snapshot && settings) {
      const d = guildCreatePayload({ ...snapshot, botUser: settings.botUser, joinedAt: event.occurredAt });
      gateway = { applicationId, message: { kind: 'dispatch', t: 'GUILD_CREATE', d, guildId: g.guildId } };
    }
  } else if (g?.kind === 'guild-delete') {
    gateway = {
      applicationId,
      message: { kind: 'dispatch', t: 'GUILD_DELETE', d: { id: g.guildId }, guildId: g.guildId },
    };
  } else if (g?.kind === 'invalidate-sessions') {
    gateway = { applicationId, message: { kind: 'invalidate' } };
  }
  return { webhook, gateway };
}

/** The application's settings, or undefined when oauth no longer knows it. */
function settingsOf(oauth: OAuthClient, applicationId: string): Promise<ApplicationSettings | undefined> {
  return oauth.settings(applicationId).catch((error: unknown) => {
    if (error instanceof DiscordError && error.httpStatus === 404) return undefined;
    throw error;
  });
}

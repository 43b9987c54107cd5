/** An event as it arrives from the stream: the subject without its prefix, and the envelope. */
export interface IncomingEvent {
  /** `<service>.<type>`, e.g. `oauth.application.authorized`. */
  topic: string;
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** A webhook event to deliver, before the objects it names are looked up. */
export interface WebhookPlan {
  /** APPLICATION_AUTHORIZED, APPLICATION_DEAUTHORIZED or ENTITLEMENT_CREATE. */
  type: string;
  /** The user to embed as `data.user`. */
  userId?: string;
  /** The guild to embed as `data.guild`. */
  guildId?: string;
  /** The rest of `data`, as it will be sent. */
  data: Record<string, unknown>;
}

/** What the application's bot sessions receive. */
export type GatewayPlan =
  | { kind: 'dispatch'; t: string; d: unknown; guildId?: string }
  | { kind: 'guild-create'; guildId: string }
  | { kind: 'guild-delete'; guildId: string }
  | { kind: 'invalidate-sessions' };

/** Who gets what for one event; null when nothing is delivered for it. */
export interface EventPlan {
  applicationId: string;
  webhook: WebhookPlan | null;
  gateway: GatewayPlan | null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The deliveries one event makes (D:events/webhook-events.mdx, D:events/gateway-events.mdx):
 * - `oauth.application.authorized`: APPLICATION_AUTHORIZED webhook; GUILD_CREATE to the
 *   bot when it joined a guild (`bot` scope, guild install).
 * - `oauth.application.deauthorized`: APPLICATION_DEAUTHORIZED webhook; GUILD_DELETE to
 *   the bot when it is a guild's installation that ended.
 * - `oauth.guild_installation.removed` (or `application.guild_removed`): GUILD_DELETE.
 * - `oauth.application.bot_token_reset`: the bot's sessions end (4004 on their next use).
 * - `*.entitlement.created`: ENTITLEMENT_CREATE webhook and dispatch.
 * - `permissions.*command_permissions*`: APPLICATION_COMMAND_PERMISSIONS_UPDATE dispatch.
 */
export function planEvent(event: IncomingEvent): EventPlan | null {
  const { data } = event;
  const applicationId = str(data.application_id);
  if (!applicationId) return null;
  const [service] = event.topic.split('.', 1);
  const type = event.topic.slice((service ?? '').length + 1);
  const plan: EventPlan = { applicationId, webhook: null, gateway: null };

  if (service === 'oauth' && type === 'application.authorized') {
    const guildId = str(data.guild_id);
    const scopes = Array.isArray(data.scopes)
      ? data.scopes.filter((s): s is string => typeof s === 'string')
      : [];
    const integrationType =
      typeof data.integration_type === 'number' ? data.integration_type : guildId ? 0 : 1;
    plan.webhook = {
      type: 'APPLICATION_AUTHORIZED',
      userId: str(data.user_id),
      guildId: integrationType === 0 ? guildId : undefined,
      data: { integration_type: integrationType, scopes },
    };
    if (integrationType === 0 && guildId && scopes.includes('bot'))
      plan.gateway = { kind: 'guild-create', guildId };
  } else if (
    service === 'oauth' &&
    (type === 'application.deauthorized' || type === 'authorization.removed')
  ) {
    plan.webhook = { type: 'APPLICATION_DEAUTHORIZED', userId: str(data.user_id), data: {} };
    // Removing the bot from a guild uninstalls the application there: the bot leaves it.
    const guildId = str(data.guild_id);
    if (guildId && data.integration_type !== 1) plan.gateway = { kind: 'guild-delete', guildId };
  } else if (
    service === 'oauth' &&
    (type === 'guild_installation.removed' ||
      type === 'application.guild_removed' ||
      type === 'installation.removed')
  ) {
    const guildId = str(data.guild_id);
    if (guildId) plan.gateway = { kind: 'guild-delete', guildId };
  } else if (service === 'oauth' && type === 'application.bot_token_reset') {
    plan.gateway = { kind: 'invalidate-sessions' };
  } else if (type === 'entitlement.created') {
    const entitlement = isObject(data.entitlement) ? data.entitlement : data;
    plan.webhook = { type: 'ENTITLEMENT_CREATE', data: entitlement };
    plan.gateway = {
      kind: 'dispatch',
      t: 'ENTITLEMENT_CREATE',
      d: entitlement,
      guildId: str(entitlement.guild_id),
    };
  } else if (service === 'permissions' && type.includes('command_permissions')) {
    const permissions =
      isObject(data.permissions) && 'permissions' in data.permissions ? data.permissions : data;
    plan.gateway = {
      kind: 'dispatch',
      t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      d: permissions,
      guildId: str(permissions.guild_id),
    };
  }
  return plan.webhook || plan.gateway ? plan : null;
}

/** Reads an envelope's JSON into an IncomingEvent; undefined when it is not one. */
export function readEnvelope(topic: string, json: unknown): IncomingEvent | undefined {
  if (!isObject(json) || typeof json.id !== 'string' || typeof json.type !== 'string') return undefined;
  return {
    topic,
    id: json.id,
    type: json.type,
    occurredAt: typeof json.occurred_at === 'string' ? json.occurred_at : new Date().toISOString(),
    data: isObject(json.data) ? json.data : {},
  };
}

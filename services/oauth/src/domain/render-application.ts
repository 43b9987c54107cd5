import {
  EVENT_WEBHOOKS_DISABLED,
  EVENT_WEBHOOKS_DISABLED_BY_DISCORD,
  EVENT_WEBHOOKS_ENABLED,
} from './limits';
import type { ApplicationRecord } from './records';
import { renderPublicUser } from './render-user';

/**
 * An application as `GET /applications/@me` shows it (OAS `PrivateApplicationResponse`).
 * Fields this service does not model (icon, description, team…) show their empty values.
 */
export function renderApplication(app: ApplicationRecord): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: '',
    summary: '',
    type: null,
    bot: renderPublicUser(app.bot),
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: app.verifyKey,
    flags: app.flags,
    flags_new: String(app.flags),
    redirect_uris: app.redirectUris,
    interactions_endpoint_url: app.interactionsEndpointUrl,
    role_connections_verification_url: null,
    event_webhooks_url: app.eventWebhooksUrl,
    event_webhooks_status:
      app.eventWebhooksUrl === null
        ? EVENT_WEBHOOKS_DISABLED
        : app.eventWebhooksDisabled
          ? EVENT_WEBHOOKS_DISABLED_BY_DISCORD
          : EVENT_WEBHOOKS_ENABLED,
    event_webhooks_types: app.eventWebhooksTypes,
    integration_types_config: Object.fromEntries(app.integrationTypes.map((type) => [String(type), {}])),
    ...(app.owner ? { owner: renderPublicUser(app.owner) } : {}),
    team: null,
    rpc_origins: [],
    approximate_guild_count: app.guildInstallCount,
    approximate_user_install_count: app.userInstallCount,
    approximate_user_authorization_count: app.userInstallCount,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
  };
}

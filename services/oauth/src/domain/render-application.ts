import {
  EVENT_WEBHOOKS_DISABLED,
  EVENT_WEBHOOKS_DISABLED_BY_DISCORD,
  EVENT_WEBHOOKS_ENABLED,
} from './limits';
import type { InstallParams } from './read-install-params';
import type { ApplicationRecord } from './records';
import { renderPublicUser } from './render-user';

/**
 * An application as `GET /applications/@me` shows it (OAS `PrivateApplicationResponse`).
 * Images show as the digest of the image last set. Fields this service does not model
 * (summary, team…) show their empty values; optional ones it has no value for are left out.
 */
export function renderApplication(app: ApplicationRecord): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    icon: app.iconHash,
    description: app.description,
    ...(app.coverImageHash === null ? {} : { cover_image: app.coverImageHash }),
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
    role_connections_verification_url: app.roleConnectionsVerificationUrl,
    ...(app.customInstallUrl === null ? {} : { custom_install_url: app.customInstallUrl }),
    ...(app.installParams === null ? {} : { install_params: renderInstallParams(app.installParams) }),
    ...(app.tags.length === 0 ? {} : { tags: app.tags }),
    event_webhooks_url: app.eventWebhooksUrl,
    event_webhooks_status:
      app.eventWebhooksUrl === null || !app.eventWebhooksEnabled
        ? EVENT_WEBHOOKS_DISABLED
        : app.eventWebhooksDisabled
          ? EVENT_WEBHOOKS_DISABLED_BY_DISCORD
          : EVENT_WEBHOOKS_ENABLED,
    event_webhooks_types: app.eventWebhooksTypes,
    integration_types_config: Object.fromEntries(
      app.integrationTypes.map((type) => {
        const params = app.integrationInstallParams[`${type}`];
        return [String(type), params ? { oauth2_install_params: renderInstallParams(params) } : {}];
      }),
    ),
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

/** OAS `ApplicationOAuth2InstallParamsResponse`: both fields, permissions as a string. */
function renderInstallParams(params: InstallParams): Record<string, unknown> {
  return { scopes: params.scopes, permissions: params.permissions };
}

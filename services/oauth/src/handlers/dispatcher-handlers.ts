import type { oauth } from '@acs/protos';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { renderPublicUser } from '../domain/render-user';
import type { HandlerDeps } from './handler-deps';

/** Handlers of the RPCs only the dispatcher calls (delivery settings and signing key). */
export function createDispatcherHandlers({
  eventWebhookSettings: settings,
}: Pick<HandlerDeps, 'eventWebhookSettings'>) {
  return {
    async GetEventWebhookSettings(
      request: oauth.GetEventWebhookSettingsRequest__Output,
    ): Promise<oauth.GetEventWebhookSettingsResponse> {
      const found = await settings.get(parseSnowflakeParam('application_id', request.application_id));
      return {
        event_webhooks_url: found.url ?? '',
        event_webhooks_types: found.types,
        verify_key: found.verifyKey,
        signing_key_pem: found.signingKeyPem,
        flags: found.flags,
        bot_user_json: JSON.stringify(renderPublicUser(found.bot)),
      };
    },

    async DisableEventWebhooks(
      request: oauth.DisableEventWebhooksRequest__Output,
    ): Promise<oauth.DisableEventWebhooksResponse> {
      await settings.disable(parseSnowflakeParam('application_id', request.application_id));
      return {};
    },
  };
}

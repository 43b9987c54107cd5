import type { Logger } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import type { HttpTarget } from '../delivery/http-delivery';
import type { InvocationParties, JsonRecord } from '../domain/invocation';
import { pendingRecordOf, type InteractionStore, type NewInteraction } from '../store/interaction-store';
import type { ApplicationFactsMemo } from './application-facts';

/** What starting an interaction's delivery needs. */
export interface DeliveryDeps {
  oauth: OAuthClient;
  permissions: PermissionsClient;
  interactions: Pick<InteractionStore, 'record' | 'recordModalSubmit'>;
  ids: SnowflakeGenerator;
  applications: ApplicationFactsMemo;
  http: { start(target: HttpTarget, bodyJson: string): void };
  deadlines: { watch(interactionId: string, options?: { gatewayApplicationId?: string }): void };
  logger: Logger;
}

/**
 * Starts the delivery of a recorded interaction: its application's facts are left for the
 * callback that answers it, its deadline is watched, and an HTTP app gets the signed POST
 * (a gateway app got INTERACTION_CREATE from the recording's event).
 */
export function deliverInteraction(
  deps: DeliveryDeps,
  record: NewInteraction,
  parties: InvocationParties,
  interaction: JsonRecord,
): void {
  const application = { botUser: parties.botUser, applicationFlags: parties.applicationFlags };
  deps.applications.remember(record.id, application);
  deps.deadlines.watch(
    record.id,
    record.delivery === 'gateway' ? { gatewayApplicationId: record.applicationId } : {},
  );
  if (record.delivery !== 'http') return;
  deps.http.start(
    {
      interactionId: record.id,
      url: parties.interactionsEndpointUrl as string,
      signingKeyPem: parties.signingKeyPem,
      application,
      record: pendingRecordOf(record),
    },
    JSON.stringify(interaction),
  );
}

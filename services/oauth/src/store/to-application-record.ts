import type { EventWebhookType } from '../domain/event-webhook-types';
import type { IntegrationType } from '../domain/limits';
import type { InstallParams, IntegrationTypesConfig } from '../domain/read-install-params';
import type { ApplicationRecord } from '../domain/records';
import type { Prisma } from '../generated/prisma/client';
import { toUserRecord } from './to-user-record';

/** What an application row is read with to become an `ApplicationRecord`: bot user, owner, install counts. */
export const APPLICATION_RELATIONS = {
  botUser: true,
  owner: true,
  _count: { select: { guildInstallations: true, userInstallations: true } },
} satisfies Prisma.ApplicationInclude;

/** An application row read with `APPLICATION_RELATIONS`. */
export type ApplicationRow = Prisma.ApplicationGetPayload<{ include: typeof APPLICATION_RELATIONS }>;

/** An application row as the domain sees it (the signing key stays in the store). */
export function toApplicationRecord(row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id.toString(),
    name: row.name,
    flags: Number(row.flags),
    integrationTypes: row.integrationTypes as IntegrationType[],
    redirectUris: row.redirectUris,
    interactionsEndpointUrl: row.interactionsEndpointUrl,
    eventWebhooksUrl: row.eventWebhooksUrl,
    eventWebhooksDisabled: row.eventWebhooksDisabledAt !== null,
    eventWebhooksTypes: row.eventWebhooksTypes as EventWebhookType[],
    publicClient: row.publicClient,
    verifyKey: row.verifyKey,
    bot: toUserRecord(row.botUser),
    owner: row.owner ? toUserRecord(row.owner) : null,
    description: row.description,
    iconHash: row.iconHash,
    coverImageHash: row.coverImageHash,
    roleConnectionsVerificationUrl: row.roleConnectionsVerificationUrl,
    customInstallUrl: row.customInstallUrl,
    installParams: (row.installParams as InstallParams | null) ?? null,
    integrationInstallParams:
      (row.integrationInstallParams as IntegrationTypesConfig['installParams'] | null) ?? {},
    tags: row.tags,
    eventWebhooksEnabled: row.eventWebhooksEnabled,
    guildInstallCount: row._count.guildInstallations,
    userInstallCount: row._count.userInstallations,
  };
}

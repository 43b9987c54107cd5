import { fieldError } from '@acs/discord-errors';
import type { ClientRecord } from '../domain/authenticate-client';
import { ErrorCode } from '../domain/error-codes';
import type { Digest } from '../domain/hash-secret';
import type { StoredCredentials } from '../domain/issue-application-credentials';
import { UnknownApplicationError } from '../domain/oauth-errors';
import type { AuthorizingApplication } from '../domain/plan-authorization';
import type { ApplicationRecord } from '../domain/records';
import type {
  ApplicationFields,
  ApplicationPatch,
  ApplicationProfile,
} from '../domain/validate-application-body';
import type { IntegrationType } from '../domain/limits';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { announceCredentialsChange, type CredentialChange } from './announce-credentials-change';
import { deleteApplication } from './delete-application';
import { lockApplicationCredentials } from './lock-application-credentials';
import { revokeClientCredentialsGrants } from './revoke-client-credentials-grants';
import { APPLICATION_RELATIONS, toApplicationRecord } from './to-application-record';
import { writeOutboxEvent } from './write-outbox-event';

/** Applications with their bot users and credentials (stored as digests). */
export class ApplicationStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Creates the bot user and the application (same id) in one transaction. */
  async create(
    id: string,
    fields: ApplicationFields & Partial<ApplicationProfile>,
    credentials: StoredCredentials,
  ): Promise<ApplicationRecord> {
    const row = await this.prisma.$transaction(async (tx) => {
      await assertOwnerExists(tx, fields.ownerId);
      await tx.user.create({ data: { id: BigInt(id), username: fields.name, bot: true } });
      return tx.application.create({
        data: {
          ...toColumns(fields),
          id: BigInt(id),
          name: fields.name,
          verifyKey: credentials.verifyKey,
          signingKey: credentials.signingKeyPem,
          botTokenHash: credentials.botTokenHash,
          clientSecretHash: credentials.clientSecretHash,
        },
        include: APPLICATION_RELATIONS,
      });
    });
    return toApplicationRecord(row);
  }

  /** The application; 404 / 10002 when unknown. */
  async get(id: bigint): Promise<ApplicationRecord> {
    const row = await this.prisma.application.findUnique({ where: { id }, include: APPLICATION_RELATIONS });
    if (!row) throw new UnknownApplicationError();
    return toApplicationRecord(row);
  }

  /** What a consent needs to know of the application, or undefined when unknown. */
  async findAuthorizing(id: bigint): Promise<(AuthorizingApplication & { name: string }) | undefined> {
    const row = await this.prisma.application.findUnique({
      where: { id },
      select: { name: true, integrationTypes: true, redirectUris: true },
    });
    return row
      ? {
          name: row.name,
          integrationTypes: row.integrationTypes as IntegrationType[],
          redirectUris: row.redirectUris,
        }
      : undefined;
  }

  /** What client authentication needs (secret digest, public client, owner), or undefined when unknown. */
  async findClient(id: bigint): Promise<ClientRecord | undefined> {
    const row = await this.prisma.application.findUnique({
      where: { id },
      select: { clientSecretHash: true, publicClient: true, ownerId: true },
    });
    return row
      ? {
          id: id.toString(),
          clientSecretHash: row.clientSecretHash,
          publicClient: row.publicClient,
          ownerId: row.ownerId?.toString() ?? null,
        }
      : undefined;
  }

  /**
   * Applies a PATCH; 404 / 10002 when unknown. A new owner revokes the client-credentials
   * tokens, which act as the old one, and so does becoming a public client, which may not
   * hold any; that and changed flags (which resolved tokens carry) are announced
   * (`application.credentials_changed`) in the same transaction. A patch with a
   * `flagsMask` writes only those bits of the flags, under the row's lock. Every patch is
   * announced (`application.updated`): interactions' replicas drop their cached facts.
   */
  async update(id: bigint, patch: ApplicationPatch, now: Date): Promise<ApplicationRecord> {
    const row = await this.prisma.$transaction(async (tx) => {
      // Locked: client-credentials issuing waits (FOR SHARE) and then sees the new owner
      // and whether the application became a public client.
      const current = await lockApplicationCredentials(tx, id);
      if (!current) throw new UnknownApplicationError();
      if (patch.ownerId) await assertOwnerExists(tx, patch.ownerId);
      const columns = toColumns(patch);
      if (patch.flagsMask !== undefined && columns.flags !== undefined) {
        const mask = BigInt(patch.flagsMask);
        columns.flags = (current.flags & ~mask) | (columns.flags & mask);
      }
      const updated = await tx.application.update({
        where: { id },
        data: columns,
        include: APPLICATION_RELATIONS,
      });
      const changed: CredentialChange[] = [];
      if (columns.flags !== undefined && columns.flags !== current.flags) changed.push('flags');
      if (columns.ownerId !== undefined && columns.ownerId !== current.owner_id) changed.push('owner_id');
      if (columns.publicClient === true && !current.public_client) changed.push('public_client');
      if (changed.includes('owner_id') || changed.includes('public_client')) {
        await revokeClientCredentialsGrants(tx, id, now);
      }
      if (changed.length > 0) await announceCredentialsChange(tx, id, changed);
      // Whatever the patch changed, invocation facts cached from before must not be trusted.
      await writeOutboxEvent(tx, 'application.updated', { application_id: id.toString() });
      return updated;
    });
    return toApplicationRecord(row);
  }

  /**
   * Replaces the bot token's digest, so the old token fails from the next lookup on, and
   * announces it (`application.bot_token_reset`) so that caches of resolved tokens drop it.
   */
  async replaceBotToken(id: bigint, botTokenHash: Digest): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await assertApplicationExists(tx, id);
      await tx.application.update({ where: { id }, data: { botTokenHash } });
      await writeOutboxEvent(tx, 'application.bot_token_reset', { application_id: id.toString() });
    });
  }

  /** Deletes the application and everything of it (deleteApplication); 404 / 10002 when unknown. */
  async delete(id: bigint): Promise<void> {
    await deleteApplication(this.prisma, id);
  }

  /** Replaces the client secret's digest; 404 / 10002 when unknown. */
  async replaceClientSecret(id: bigint, clientSecretHash: Digest): Promise<void> {
    const { count } = await this.prisma.application.updateMany({ where: { id }, data: { clientSecretHash } });
    if (count === 0) throw new UnknownApplicationError();
  }
}

async function assertApplicationExists(tx: Prisma.TransactionClient, id: bigint): Promise<void> {
  const found = await tx.application.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw new UnknownApplicationError();
}

// Users are never deleted, so a check inside the transaction is as good as a lock.
async function assertOwnerExists(tx: Prisma.TransactionClient, ownerId: string | null): Promise<void> {
  if (ownerId === null) return;
  const owner = await tx.user.findUnique({ where: { id: BigInt(ownerId) }, select: { bot: true } });
  if (!owner || owner.bot) throw fieldError('owner_id', ErrorCode.UNKNOWN_USER, 'Unknown User');
}

/** The columns a PATCH (or a full set of fields) writes; undefined leaves a column alone. */
interface ApplicationColumns {
  name?: string;
  flags?: bigint;
  integrationTypes?: number[];
  redirectUris?: string[];
  interactionsEndpointUrl?: string | null;
  eventWebhooksUrl?: string | null;
  eventWebhooksDisabledAt?: null;
  eventWebhooksTypes?: string[];
  publicClient?: boolean;
  ownerId?: bigint | null;
  eventWebhooksEnabled?: boolean;
  description?: string;
  iconHash?: string | null;
  coverImageHash?: string | null;
  roleConnectionsVerificationUrl?: string | null;
  customInstallUrl?: string | null;
  installParams?: Prisma.InputJsonObject | typeof Prisma.DbNull;
  integrationInstallParams?: Prisma.InputJsonObject;
  tags?: string[];
}

function toColumns(fields: ApplicationPatch): ApplicationColumns {
  return {
    name: fields.name,
    flags: fields.flags === undefined ? undefined : BigInt(fields.flags),
    integrationTypes: fields.integrationTypes,
    redirectUris: fields.redirectUris,
    interactionsEndpointUrl: fields.interactionsEndpointUrl,
    eventWebhooksUrl: fields.eventWebhooksUrl,
    // Saving the URL (verified by the dispatcher on the way), or turning the webhooks on,
    // lifts a disabling by the dispatcher.
    eventWebhooksDisabledAt:
      fields.eventWebhooksUrl !== undefined || fields.eventWebhooksEnabled === true ? null : undefined,
    eventWebhooksEnabled: fields.eventWebhooksEnabled,
    eventWebhooksTypes: fields.eventWebhooksTypes,
    publicClient: fields.publicClient,
    ownerId:
      fields.ownerId === undefined ? undefined : fields.ownerId === null ? null : BigInt(fields.ownerId),
    description: fields.description,
    iconHash: fields.iconHash,
    coverImageHash: fields.coverImageHash,
    roleConnectionsVerificationUrl: fields.roleConnectionsVerificationUrl,
    customInstallUrl: fields.customInstallUrl,
    installParams:
      fields.installParams === null
        ? Prisma.DbNull
        : (fields.installParams as Prisma.InputJsonObject | undefined),
    // Set together with the integration types (integration_types_config): replaces them all.
    integrationInstallParams: fields.integrationInstallParams as Prisma.InputJsonObject | undefined,
    tags: fields.tags,
  };
}

import { writeOutboxEvent } from './write-outbox-event';
import { UnknownApplicationError } from '../domain/oauth-errors';
import type { UserRecord } from '../domain/records';
import type { PrismaClient } from '../generated/prisma/client';
import { toUserRecord } from './to-user-record';

/** What the dispatcher needs to deliver an application's webhook events. */
export interface EventWebhookSettings {
  url: string | null;
  types: string[];
  verifyKey: string;
  signingKeyPem: string;
  flags: number;
  bot: UserRecord;
}

/** Reads an application's delivery settings, signing key included (for the dispatcher only). */
export class EventWebhookSettingsStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The settings (no URL while the developer has the webhooks off); 404 / 10002 when the application is unknown. */
  async get(applicationId: bigint): Promise<EventWebhookSettings> {
    const row = await this.prisma.application.findUnique({
      where: { id: applicationId },
      include: { botUser: true },
    });
    if (!row) throw new UnknownApplicationError();
    return {
      url: row.eventWebhooksEnabled ? row.eventWebhooksUrl : null,
      types: row.eventWebhooksTypes,
      verifyKey: row.verifyKey,
      signingKeyPem: row.signingKey,
      flags: Number(row.flags),
      bot: toUserRecord(row.botUser),
    };
  }

  /** Marks the event webhooks disabled by the dispatcher (status 3), announced; 404 / 10002 when unknown. */
  async disable(applicationId: bigint): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.application.updateMany({
        where: { id: applicationId },
        data: { eventWebhooksDisabledAt: new Date() },
      });
      if (count === 0) throw new UnknownApplicationError();
      // The application as an invocation shows it changed (its event webhooks status).
      await writeOutboxEvent(tx, 'application.updated', { application_id: applicationId.toString() });
    });
  }
}
